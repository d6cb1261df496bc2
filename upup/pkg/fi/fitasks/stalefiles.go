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
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"sort"

	"k8s.io/kops/upup/pkg/fi"
)

// StaleFilesKind is the TaskKey kind of StaleFiles tasks.
const StaleFilesKind = "StaleFiles"

// StaleFiles deletes the files in directories kops owns that the current model no longer writes:
// the manifests of addons that left the bootstrap channel, or of their old versions. Only the
// listed directories are looked at, so files other tools keep next to them are never touched.
// It runs after the new channel is written, so no channel ever names a deleted manifest.
type StaleFiles struct {
	Name string
	// Directories are relative to Context.ConfigBase, e.g. "addons/coredns.addons.k8s.io".
	Directories []string
	// Keep lists the locations (relative to ConfigBase) the model writes.
	Keep []string
	Deps []fi.TaskKey
}

var (
	_ fi.Task           = (*StaleFiles)(nil)
	_ fi.DirectRenderer = (*StaleFiles)(nil)
)

func (s *StaleFiles) Key() fi.TaskKey { return fi.TaskKey{Kind: StaleFilesKind, Name: s.Name} }

func (s *StaleFiles) Dependencies() []fi.TaskKey { return slices.Clone(s.Deps) }

// Plan lists the stale files: each is a field named after its directory.
func (s *StaleFiles) Plan(_ context.Context, c *fi.Context) (*fi.Change, error) {
	stale, err := s.stale(c)
	if err != nil {
		return nil, err
	}
	if len(stale) == 0 {
		return &fi.Change{Action: fi.ActionNone}, nil
	}
	change := &fi.Change{Action: fi.ActionDelete}
	for _, f := range stale {
		change.Fields = append(change.Fields, fi.FieldChange{Name: path.Base(f.dir), Old: f.location})
	}
	return change, nil
}

// RenderDirect deletes the stale files found when planning.
func (s *StaleFiles) RenderDirect(_ context.Context, c *fi.Context, change *fi.Change) error {
	if change.Action == fi.ActionNone {
		return nil
	}
	for _, f := range change.Fields {
		p, err := inConfigBase(c, f.Old)
		if err != nil {
			return err
		}
		if err := p.Remove(); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("removing stale %s: %w", p, err)
		}
	}
	return nil
}

type staleFile struct{ dir, location string }

func (s *StaleFiles) stale(c *fi.Context) ([]staleFile, error) {
	keep := map[string]bool{}
	for _, k := range s.Keep {
		keep[k] = true
	}
	var out []staleFile
	for _, dir := range s.Directories {
		p, err := inConfigBase(c, dir)
		if err != nil {
			return nil, fmt.Errorf("StaleFiles %q: %w", s.Name, err)
		}
		files, err := p.ReadDir()
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("listing %s: %w", p, err)
		}
		for _, f := range files {
			if loc := dir + "/" + f.Base(); !keep[loc] {
				if err := f.CheckWritable(); err != nil {
					return nil, err
				}
				out = append(out, staleFile{dir: dir, location: loc})
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].location < out[j].location })
	return out, nil
}
