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

// StaleFilesKind is the TaskKey kind of StaleFiles tasks.
const StaleFilesKind = "StaleFiles"

// StaleFiles deletes the files kops wrote that the model no longer writes (Keep). It runs after
// the files that replace them are written (Deps), so nothing kops writes still names a deleted
// file. kops owns a file in one of two ways, and never deletes any other:
//   - by its folder: every file directly in Directories is kops's (the state store's addon
//     folders, which only kops writes);
//   - by its bytes: a file the Ledger records below Under is kops's while its bytes are bytes kops
//     wrote (folders shared with others: a terraform --out folder, igconfig/). A recorded file
//     changed since is left alone and named, and so is every file of Report's folders the ledger
//     does not record. The ledger is then settled to what is on disk: each file kops wrote keeps
//     the one hash of the bytes it holds now, so the next run finds nothing to change.
//
// Every location goes through inConfigBase and vfs, which confine it to ConfigBase.
type StaleFiles struct {
	Name string
	// Directories are folders kops owns whole, relative to ConfigBase, e.g.
	// "addons/coredns.addons.k8s.io".
	Directories []string
	// Ledger is the ledger's location, relative to ConfigBase; "" when no file is owned by its bytes.
	Ledger string
	// Under limits the recorded files looked at to those below this folder ("" for all).
	Under string
	// Keep lists the locations (relative to ConfigBase) the model writes.
	Keep []string
	// Report are folders whose files the ledger does not record are named as left alone (the
	// terraform data/ folder); folders shared with other tools' files by design are not listed.
	Report []string
	// RemoveEmptyFolders removes each folder a deleted recorded file leaves empty, up to Under.
	RemoveEmptyFolders bool
	Deps               []fi.TaskKey
}

var (
	_ fi.Task           = (*StaleFiles)(nil)
	_ fi.DirectRenderer = (*StaleFiles)(nil)
)

func (s *StaleFiles) Key() fi.TaskKey { return fi.TaskKey{Kind: StaleFilesKind, Name: s.Name} }

func (s *StaleFiles) Dependencies() []fi.TaskKey { return slices.Clone(s.Deps) }

// Plan lists the stale files as deletions, each a field named after its folder, and what it
// leaves alone; a ledger to settle is a modification.
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

// RenderDirect finds the stale files again, so a recorded file is deleted only while it still
// holds bytes kops wrote, deletes them, then settles the ledger.
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

// removeEmpty removes dir and its parents up to Under while they are empty; a folder holding
// anything (another tool's files) stays, and so do its parents.
func (s *StaleFiles) removeEmpty(c *fi.Context, dir string) {
	for dir != "." && dir != strings.TrimSuffix(s.Under, "/") && strings.HasPrefix(dir+"/", s.Under) {
		p, err := inConfigBase(c, dir)
		if err != nil || p.RemoveDir() != nil {
			return
		}
		dir = path.Dir(dir)
	}
}

// staleFiles is what StaleFiles found: the stale files kops owns, what it leaves alone, and the
// ledger as stored and as it is to be once the stale files are gone.
type staleFiles struct {
	stale, leftAlone []string
	stored, settled  []byte
}

func (f staleFiles) unsettled() bool { return f.stored != nil && string(f.stored) != string(f.settled) }

// plan lists the owned folders, reads the ledger and every file it records once, and sorts them.
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

// planFolders marks as stale every file of Directories the model no longer writes.
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

// planLedger marks as stale the recorded files below Under the model no longer writes whose bytes
// are kops's, names the others as left alone, and computes the settled ledger.
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

// list names the entries of the folder at dir; a missing folder has none.
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
