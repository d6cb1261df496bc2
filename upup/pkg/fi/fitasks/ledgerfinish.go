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

// LedgerFinishKind is the TaskKey kind of LedgerFinish tasks.
const LedgerFinishKind = "LedgerFinish"

// LedgerFinish ends a ledger's run. It deletes the files the ledger records below Under that the
// model no longer writes (Keep), when their bytes are still bytes kops wrote; a recorded file
// changed since is left alone, and so is every file of Report's folders the ledger does not
// record. Then it settles the ledger to what is on disk: each file kops wrote keeps the one hash
// of the bytes it holds now (LedgerUpdate recorded the old and the new while writing), so the next
// run finds nothing to change. It runs after the files are written (Deps), so nothing kops writes
// still names a deleted file.
type LedgerFinish struct {
	Name string
	// Ledger is the ledger's location, relative to ConfigBase.
	Ledger string
	// Under limits the recorded files looked at to those below this folder ("" for all).
	Under string
	// Keep lists the locations the model writes.
	Keep []string
	// Report are folders whose files the ledger does not record are named as left alone (the
	// terraform data/ folder); folders shared with other tools' files by design are not listed.
	Report []string
	// RemoveEmptyFolders removes each folder a deleted file leaves empty, up to Under.
	RemoveEmptyFolders bool
	Deps               []fi.TaskKey
}

var (
	_ fi.Task           = (*LedgerFinish)(nil)
	_ fi.DirectRenderer = (*LedgerFinish)(nil)
)

func (s *LedgerFinish) Key() fi.TaskKey { return fi.TaskKey{Kind: LedgerFinishKind, Name: s.Name} }

func (s *LedgerFinish) Dependencies() []fi.TaskKey { return slices.Clone(s.Deps) }

// Plan lists the stale files kops wrote as deletions, each a field named after its folder, and
// what it leaves alone; a ledger to settle is a modification.
func (s *LedgerFinish) Plan(_ context.Context, c *fi.Context) (*fi.Change, error) {
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

// RenderDirect deletes the stale files, each checked again to hold bytes kops wrote, then
// settles the ledger.
func (s *LedgerFinish) RenderDirect(_ context.Context, c *fi.Context, _ *fi.Change) error {
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
func (s *LedgerFinish) removeEmpty(c *fi.Context, dir string) {
	for dir != "." && dir != strings.TrimSuffix(s.Under, "/") && strings.HasPrefix(dir+"/", s.Under) {
		p, err := inConfigBase(c, dir)
		if err != nil || p.RemoveDir() != nil {
			return
		}
		dir = path.Dir(dir)
	}
}

// finish is what LedgerFinish found: the stale files kops wrote, what it leaves alone, and the
// ledger as stored and as it is to be once the stale files are gone.
type finish struct {
	stale, leftAlone []string
	stored, settled  []byte
}

func (f finish) unsettled() bool { return f.stored != nil && string(f.stored) != string(f.settled) }

// plan reads the ledger and every file it records once, and sorts them.
func (s *LedgerFinish) plan(c *fi.Context) (finish, error) {
	l, stored, err := readLedger(c, s.Ledger)
	if err != nil {
		return finish{}, err
	}
	keep := map[string]bool{s.Ledger: true}
	for _, k := range s.Keep {
		keep[k] = true
	}
	f := finish{stored: stored}
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
				return finish{}, err
			}
			f.stale = append(f.stale, loc)
		default:
			f.leftAlone = append(f.leftAlone, loc)
		}
	}
	f.settled = settled.encode()
	for _, dir := range s.Report {
		p, err := inConfigBase(c, dir)
		if err != nil {
			return finish{}, err
		}
		files, err := p.ReadDir()
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return finish{}, fmt.Errorf("listing %s: %w", p, err)
		}
		for _, file := range files {
			if loc := dir + "/" + file.Base(); !keep[loc] && l.Files[loc] == nil {
				f.leftAlone = append(f.leftAlone, loc)
			}
		}
	}
	return f, nil
}
