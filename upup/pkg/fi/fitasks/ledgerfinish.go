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
	"k8s.io/kops/util/pkg/vfs"
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
	stale, leftAlone, err := s.sort(c)
	if err != nil {
		return nil, err
	}
	change := &fi.Change{Action: fi.ActionNone, LeftAlone: leftAlone}
	for _, loc := range stale {
		change.Action = fi.ActionDelete
		change.Fields = append(change.Fields, fi.FieldChange{Name: path.Base(path.Dir(loc)), Old: loc})
	}
	if change.Action == fi.ActionNone {
		_, stored, settled, err := s.settled(c)
		if err != nil {
			return nil, err
		}
		if stored != nil && string(stored) != string(settled) {
			change.Action = fi.ActionModify
			change.Fields = []fi.FieldChange{{Name: "Location", Old: s.Ledger, New: s.Ledger}, {Name: "Contents", Old: summarize(stored), New: summarize(settled)}}
		}
	}
	return change, nil
}

// RenderDirect deletes the stale files, each checked again to hold bytes kops wrote, then
// settles the ledger.
func (s *LedgerFinish) RenderDirect(_ context.Context, c *fi.Context, _ *fi.Change) error {
	if err := s.deleteStale(c); err != nil {
		return err
	}
	p, stored, settled, err := s.settled(c)
	if err != nil || stored == nil || string(stored) == string(settled) {
		return err
	}
	return p.WriteFile(settled)
}

// settled is the ledger's content once it records, for each file kops wrote, only the hash of
// the bytes the file holds now.
func (s *LedgerFinish) settled(c *fi.Context) (p vfs.Path, stored, settled []byte, err error) {
	l, stored, err := readLedger(c, s.Ledger)
	if err != nil {
		return nil, nil, nil, err
	}
	next := l.settled(c)
	if settled, err = next.encode(); err != nil {
		return nil, nil, nil, err
	}
	p, err = inConfigBase(c, s.Ledger)
	return p, stored, settled, err
}

// deleteStale deletes the stale files kops wrote.
func (s *LedgerFinish) deleteStale(c *fi.Context) error {
	stale, _, err := s.sort(c)
	if err != nil {
		return err
	}
	for _, loc := range stale {
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
	return nil
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

// sort finds the stale files kops wrote and the files it must leave alone.
func (s *LedgerFinish) sort(c *fi.Context) (stale, leftAlone []string, err error) {
	l, _, err := readLedger(c, s.Ledger)
	if err != nil {
		return nil, nil, err
	}
	keep := map[string]bool{s.Ledger: true}
	for _, k := range s.Keep {
		keep[k] = true
	}
	for _, loc := range slices.Sorted(maps.Keys(l.Files)) {
		if keep[loc] || !strings.HasPrefix(loc, s.Under) {
			continue
		}
		data, ok, err := current(c, loc)
		switch {
		case err == nil && !ok:
		case err == nil && l.owns(loc, data):
			if err := checkWritable(c, loc); err != nil {
				return nil, nil, err
			}
			stale = append(stale, loc)
		default:
			leftAlone = append(leftAlone, loc)
		}
	}
	for _, dir := range s.Report {
		p, err := inConfigBase(c, dir)
		if err != nil {
			return nil, nil, err
		}
		files, err := p.ReadDir()
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, nil, fmt.Errorf("listing %s: %w", p, err)
		}
		for _, f := range files {
			if loc := dir + "/" + f.Base(); !keep[loc] && l.Files[loc] == nil {
				leftAlone = append(leftAlone, loc)
			}
		}
	}
	return stale, leftAlone, nil
}
