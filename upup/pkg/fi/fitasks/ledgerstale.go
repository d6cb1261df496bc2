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

// LedgerStaleKind is the TaskKey kind of LedgerStale tasks.
const LedgerStaleKind = "LedgerStale"

// LedgerStale deletes the files a ledger records below Under that the model no longer writes
// (Keep), when their bytes are still bytes kops wrote; a recorded file changed since is left
// alone, and so is every file of Report's folders the ledger does not record. It runs after the
// files that replace the stale ones are written (Deps), so nothing kops writes still names a
// deleted file.
type LedgerStale struct {
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
	_ fi.Task           = (*LedgerStale)(nil)
	_ fi.DirectRenderer = (*LedgerStale)(nil)
)

func (s *LedgerStale) Key() fi.TaskKey { return fi.TaskKey{Kind: LedgerStaleKind, Name: s.Name} }

func (s *LedgerStale) Dependencies() []fi.TaskKey { return slices.Clone(s.Deps) }

// Plan lists the stale files kops wrote as deletions, each a field named after its folder, and
// what it leaves alone.
func (s *LedgerStale) Plan(_ context.Context, c *fi.Context) (*fi.Change, error) {
	stale, leftAlone, err := s.sort(c)
	if err != nil {
		return nil, err
	}
	change := &fi.Change{Action: fi.ActionNone, LeftAlone: leftAlone}
	for _, loc := range stale {
		change.Action = fi.ActionDelete
		change.Fields = append(change.Fields, fi.FieldChange{Name: path.Base(path.Dir(loc)), Old: loc})
	}
	return change, nil
}

// RenderDirect deletes the stale files, each checked again to hold bytes kops wrote.
func (s *LedgerStale) RenderDirect(_ context.Context, c *fi.Context, _ *fi.Change) error {
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
func (s *LedgerStale) removeEmpty(c *fi.Context, dir string) {
	for dir != "." && dir != strings.TrimSuffix(s.Under, "/") && strings.HasPrefix(dir+"/", s.Under) {
		p, err := inConfigBase(c, dir)
		if err != nil || p.RemoveDir() != nil {
			return
		}
		dir = path.Dir(dir)
	}
}

// sort finds the stale files kops wrote and the files it must leave alone.
func (s *LedgerStale) sort(c *fi.Context) (stale, leftAlone []string, err error) {
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
