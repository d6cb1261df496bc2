/*
Copyright 2026 The kops addon operators Authors.

Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.
You may obtain a copy of the License at

    http://www.apache.org/licenses/LICENSE-2.0

Unless required by applicable law or agreed to in writing, software
distributed under the License is distributed on an "AS IS" BASIS,
WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
See the License for the specific language governing permissions and
limitations under the License.
*/

package fitasks

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"

	"k8s.io/kops/upup/pkg/fi"
	"k8s.io/kops/util/pkg/vfs"
)

const ManagedFileKind = "ManagedFile"

// ManagedFile is a state-store file whose whole content kops owns.
type ManagedFile struct {
	Name string
	// Location is relative to Context.ConfigBase, e.g. "addons/bootstrap-channel.yaml".
	Location string
	Contents []byte
	Deps     []fi.TaskKey
}

var (
	_ fi.Task           = (*ManagedFile)(nil)
	_ fi.DirectRenderer = (*ManagedFile)(nil)
)

func (f *ManagedFile) Key() fi.TaskKey { return fi.TaskKey{Kind: ManagedFileKind, Name: f.Name} }

func (f *ManagedFile) Dependencies() []fi.TaskKey { return slices.Clone(f.Deps) }

// String summarizes the contents so duplicate-task errors stay readable.
func (f *ManagedFile) String() string {
	return fmt.Sprintf("ManagedFile{Name: %q, Location: %q, Contents: %s, Deps: %v}",
		f.Name, f.Location, summarize(f.Contents), f.Deps)
}

func (f *ManagedFile) Plan(_ context.Context, c *fi.Context) (*fi.Change, error) {
	p, err := f.path(c)
	if err != nil {
		return nil, err
	}
	if err := p.CheckWritable(); err != nil {
		return nil, err
	}
	current, err := p.ReadFile()
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return &fi.Change{Action: fi.ActionCreate, Fields: []fi.FieldChange{
			{Name: "Location", New: f.Location},
			{Name: "Contents", New: summarize(f.Contents)},
		}}, nil
	case err != nil:
		return nil, fmt.Errorf("reading %s: %w", p, err)
	case string(current) == string(f.Contents):
		return &fi.Change{Action: fi.ActionNone}, nil
	}
	diff, err := unifiedDiff(f.Location, current, f.Contents)
	if err != nil {
		return nil, fmt.Errorf("diffing %s: %w", p, err)
	}
	return &fi.Change{
		Action: fi.ActionModify,
		Fields: []fi.FieldChange{{Name: "Contents", Old: summarize(current), New: summarize(f.Contents)}},
		Diff:   diff,
	}, nil
}

// RenderDirect writes atomically, so a reader never sees half a manifest.
func (f *ManagedFile) RenderDirect(_ context.Context, c *fi.Context, change *fi.Change) error {
	switch change.Action {
	case fi.ActionNone:
		return nil
	case fi.ActionCreate, fi.ActionModify:
	default:
		return fmt.Errorf("ManagedFile %s: action %s is not supported", f.Location, change.Action)
	}
	p, err := f.path(c)
	if err != nil {
		return err
	}
	if err := p.WriteFile(f.Contents); err != nil {
		return fmt.Errorf("writing %s: %w", p, err)
	}
	return nil
}

func (f *ManagedFile) path(c *fi.Context) (vfs.Path, error) {
	p, err := inConfigBase(c, f.Location)
	if err != nil {
		return nil, fmt.Errorf("ManagedFile %q: %w", f.Name, err)
	}
	return p, nil
}

// inConfigBase refuses any location that could escape ConfigBase: a task must never touch another
// cluster's state.
func inConfigBase(c *fi.Context, loc string) (vfs.Path, error) {
	if c == nil || c.ConfigBase == nil {
		return nil, errors.New("no ConfigBase in the task context")
	}
	if loc == "" || path.IsAbs(loc) || path.Clean(loc) != loc || loc == ".." || strings.HasPrefix(loc, "../") || strings.Contains(loc, `\`) {
		return nil, fmt.Errorf("location %q must be a clean relative path inside the config base, e.g. addons/bootstrap-channel.yaml", loc)
	}
	return c.ConfigBase.Join(loc), nil
}

func summarize(b []byte) string {
	sum := sha256.Sum256(b)
	return fmt.Sprintf("%d bytes, sha256 %s", len(b), hex.EncodeToString(sum[:])[:12])
}
