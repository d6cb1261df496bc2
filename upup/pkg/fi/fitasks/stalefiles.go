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
	"maps"
	"path"
	"slices"
	"strings"

	"k8s.io/kops/upup/pkg/fi"
)

const StaleFilesKind = "StaleFiles"

// StaleFiles deletes files kops wrote that the model no longer writes (Keep), after their
// replacements (Deps). kops owns a file by its folder (Directories, which only kops writes) or by its
// bytes (recorded in Ledger); a changed or unrecorded file is left alone and named, and the ledger is
// then settled. Every location is confined to ConfigBase.
type StaleFiles struct {
	Name        string
	Directories []string
	Ledger      string
	Under       string
	Keep        []string
	// Report folders' unrecorded files are named as left alone (terraform's data/).
	Report []string
	// RemoveEmptyFolders removes folders a deleted recorded file leaves empty, up to Under.
	RemoveEmptyFolders bool
	Deps               []fi.TaskKey
}

var (
	_ fi.Task           = (*StaleFiles)(nil)
	_ fi.DirectRenderer = (*StaleFiles)(nil)
)

func (s *StaleFiles) Key() fi.TaskKey { return fi.TaskKey{Kind: StaleFilesKind, Name: s.Name} }

func (s *StaleFiles) Dependencies() []fi.TaskKey { return slices.Clone(s.Deps) }

func (s *StaleFiles) Plan(_ context.Context, c *fi.Context) (*fi.Change, error) {
	f, err := s.plan(c)
	if err != nil {
		return nil, err
	}
	change := &fi.Change{Action: fi.ActionNone, LeftAlone: f.leftAlone}
	for _, loc := range f.stale {
		change.Action = fi.ActionDelete
		change.Fields = append(change.Fields, fi.FieldChange{Name: path.Base(path.Dir(loc)), Old: loc})
	}
	if change.Action == fi.ActionNone && f.unsettled() {
		change.Action = fi.ActionModify
		change.Fields = []fi.FieldChange{{Name: "Location", Old: s.Ledger, New: s.Ledger}, {Name: "Contents", Old: summarize(f.stored), New: summarize(f.settled)}}
	}
	return change, nil
}

// RenderDirect finds the stale files again, so a recorded file is deleted only while it holds kops's bytes.
func (s *StaleFiles) RenderDirect(_ context.Context, c *fi.Context, _ *fi.Change) error {
	f, err := s.plan(c)
	if err != nil {
		return err
	}
	for _, loc := range f.stale {
		p, err := inConfigBase(c, loc)
		if err != nil {
			return err
		}
		if err := p.Remove(); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("removing stale %s: %w", p, err)
		}
		if s.RemoveEmptyFolders {
			s.removeEmpty(c, path.Dir(loc))
		}
	}
	if !f.unsettled() {
		return nil
	}
	p, err := inConfigBase(c, s.Ledger)
	if err != nil {
		return err
	}
	return p.WriteFile(f.settled)
}

// removeEmpty stops at the first non-empty folder (another tool's files).
func (s *StaleFiles) removeEmpty(c *fi.Context, dir string) {
	for dir != "." && dir != strings.TrimSuffix(s.Under, "/") && strings.HasPrefix(dir+"/", s.Under) {
		p, err := inConfigBase(c, dir)
		if err != nil || p.RemoveDir() != nil {
			return
		}
		dir = path.Dir(dir)
	}
}

type staleFiles struct {
	stale, leftAlone []string
	stored, settled  []byte
}

func (f staleFiles) unsettled() bool { return f.stored != nil && string(f.stored) != string(f.settled) }

func (s *StaleFiles) plan(c *fi.Context) (staleFiles, error) {
	keep := map[string]bool{}
	for _, k := range s.Keep {
		keep[k] = true
	}
	var f staleFiles
	if err := s.planFolders(c, keep, &f); err != nil {
		return staleFiles{}, fmt.Errorf("StaleFiles %q: %w", s.Name, err)
	}
	if s.Ledger != "" {
		keep[s.Ledger] = true
		if err := s.planLedger(c, keep, &f); err != nil {
			return staleFiles{}, err
		}
	}
	slices.Sort(f.stale)
	f.stale = slices.Compact(f.stale)
	return f, nil
}

func (s *StaleFiles) planFolders(c *fi.Context, keep map[string]bool, f *staleFiles) error {
	for _, dir := range s.Directories {
		files, err := list(c, dir)
		if err != nil {
			return err
		}
		for _, name := range files {
			if loc := dir + "/" + name; !keep[loc] {
				if err := checkWritable(c, loc); err != nil {
					return err
				}
				f.stale = append(f.stale, loc)
			}
		}
	}
	return nil
}

func (s *StaleFiles) planLedger(c *fi.Context, keep map[string]bool, f *staleFiles) error {
	l, stored, err := readLedger(c, s.Ledger)
	if err != nil {
		return err
	}
	f.stored = stored
	settled := ledger{Files: map[string][]string{}}
	for _, loc := range slices.Sorted(maps.Keys(l.Files)) {
		data, ok, err := current(c, loc)
		var hash string
		if ok && err == nil {
			hash = contentHash(data)
		}
		owned := hash != "" && l.owns(loc, hash)
		switch {
		case err == nil && !ok: // gone: dropped
		case keep[loc] || !strings.HasPrefix(loc, s.Under):
			if owned {
				settled.Files[loc] = []string{hash}
			}
		case owned:
			if err := checkWritable(c, loc); err != nil {
				return err
			}
			f.stale = append(f.stale, loc)
		default:
			f.leftAlone = append(f.leftAlone, loc)
		}
	}
	f.settled = settled.encode()
	for _, dir := range s.Report {
		files, err := list(c, dir)
		if err != nil {
			return err
		}
		for _, name := range files {
			if loc := dir + "/" + name; !keep[loc] && l.Files[loc] == nil {
				f.leftAlone = append(f.leftAlone, loc)
			}
		}
	}
	return nil
}

func list(c *fi.Context, dir string) ([]string, error) {
	p, err := inConfigBase(c, dir)
	if err != nil {
		return nil, err
	}
	files, err := p.ReadDir()
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("listing %s: %w", p, err)
	}
	names := make([]string, 0, len(files))
	for _, file := range files {
		names = append(names, file.Base())
	}
	return names, nil
}
