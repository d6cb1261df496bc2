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
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"slices"
	"strings"

	"k8s.io/kops/upup/pkg/fi"
)

const LedgerKind = "Ledger"

const LedgerName = ".kops-ledger.sha256"

// A ledger records the files kops wrote in a folder it shares with others (--out, igconfig/), with
// the SHA-256 of each content. A file is kops's to overwrite or delete only while its bytes are
// kops's. It is written before the files, so a killed run leaves them owned. The format is
// sha256sum's, so `sha256sum -c` checks it.
type ledger struct {
	Files map[string][]string
}

func contentHash(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

func (l ledger) owns(location, hash string) bool {
	return slices.Contains(l.Files[location], hash)
}

func (l ledger) encode() []byte {
	var b strings.Builder
	for _, loc := range slices.Sorted(maps.Keys(l.Files)) {
		for _, h := range l.Files[loc] {
			b.WriteString(h + "  " + loc + "\n")
		}
	}
	return []byte(b.String())
}

func parseLedger(data []byte) (ledger, error) {
	l := ledger{Files: map[string][]string{}}
	for i, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		if line == "" && len(data) == 0 {
			break
		}
		h, loc, ok := strings.Cut(line, "  ")
		if _, err := hex.DecodeString(h); !ok || err != nil || len(h) != 2*sha256.Size || loc == "" {
			return ledger{}, fmt.Errorf("line %d is not \"<sha256 in hex>  <file>\"", i+1)
		}
		l.Files[loc] = append(l.Files[loc], h)
	}
	for loc, hashes := range l.Files {
		slices.Sort(hashes)
		l.Files[loc] = slices.Compact(hashes)
	}
	return l, nil
}

// settled keeps one hash per recorded file still holding kops's bytes and drops the rest.
func (l ledger) settled(c *fi.Context) ledger {
	out := ledger{Files: map[string][]string{}}
	for loc := range l.Files {
		if data, ok, err := current(c, loc); ok && err == nil {
			if h := contentHash(data); l.owns(loc, h) {
				out.Files[loc] = []string{h}
			}
		}
	}
	return out
}

func readLedger(c *fi.Context, location string) (ledger, []byte, error) {
	p, err := inConfigBase(c, location)
	if err != nil {
		return ledger{}, nil, err
	}
	data, err := p.ReadFile()
	if errors.Is(err, fs.ErrNotExist) {
		return ledger{Files: map[string][]string{}}, nil, nil
	}
	if err != nil {
		return ledger{}, nil, fmt.Errorf("reading the ledger of the files kops wrote: %w", err)
	}
	l, err := parseLedger(data)
	if err != nil {
		return ledger{}, nil, fmt.Errorf("%s is not a ledger kops can read (%v): kops cannot tell which files there it wrote; "+
			"move the folder's files away, or delete the ledger if none of them is yours", p, err)
	}
	return l, data, nil
}

// current: ok is false when there is no file; a non-regular file (a link out, a FIFO) is an error.
func current(c *fi.Context, location string) (data []byte, ok bool, err error) {
	p, err := inConfigBase(c, location)
	if err != nil {
		return nil, false, err
	}
	data, err = p.ReadFile()
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	return data, err == nil, err
}

func checkWritable(c *fi.Context, location string) error {
	p, err := inConfigBase(c, location)
	if err != nil {
		return err
	}
	return p.CheckWritable()
}

// LedgerUpdate writes the ledger before the files it records; tasks writing them depend on it.
type LedgerUpdate struct {
	Name     string
	Location string
	Files    map[string][]byte
	// RefuseForeign fails when a file to be written holds bytes kops did not write; otherwise the file
	// is kops's by name (the store's own files) and overwritten.
	RefuseForeign bool
}

var (
	_ fi.Task           = (*LedgerUpdate)(nil)
	_ fi.DirectRenderer = (*LedgerUpdate)(nil)
)

func (l *LedgerUpdate) Key() fi.TaskKey { return fi.TaskKey{Kind: LedgerKind, Name: l.Name} }

func (l *LedgerUpdate) Dependencies() []fi.TaskKey { return nil }

func (l *LedgerUpdate) Plan(_ context.Context, c *fi.Context) (*fi.Change, error) {
	old, stored, err := readLedger(c, l.Location)
	if err != nil {
		return nil, err
	}
	data, err := l.next(c, old)
	if err != nil {
		return nil, err
	}
	fields := []fi.FieldChange{{Name: "Location", New: l.Location}, {Name: "Contents", Old: summarize(stored), New: summarize(data)}}
	switch {
	case stored == nil:
		return &fi.Change{Action: fi.ActionCreate, Fields: fields}, nil
	case string(stored) == string(data):
		return &fi.Change{Action: fi.ActionNone}, nil
	}
	return &fi.Change{Action: fi.ActionModify, Fields: fields}, nil
}

// RenderDirect computes the ledger again from the folder as it is now.
func (l *LedgerUpdate) RenderDirect(_ context.Context, c *fi.Context, _ *fi.Change) error {
	old, _, err := readLedger(c, l.Location)
	if err != nil {
		return err
	}
	data, err := l.next(c, old)
	if err != nil {
		return err
	}
	p, err := inConfigBase(c, l.Location)
	if err != nil {
		return err
	}
	return p.WriteFile(data)
}

func (l *LedgerUpdate) next(c *fi.Context, old ledger) ([]byte, error) {
	next := old.settled(c)
	var foreign []string
	var unreadable error
	for _, loc := range slices.Sorted(maps.Keys(l.Files)) {
		want := l.Files[loc]
		// Files kops owns by name are checked by their own tasks.
		if l.RefuseForeign {
			if err := checkWritable(c, loc); err != nil {
				return nil, err
			}
			data, ok, err := current(c, loc)
			switch {
			case err != nil:
				foreign = append(foreign, loc)
				unreadable = cmp.Or(unreadable, err)
				continue
			case ok && string(data) != string(want) && !old.owns(loc, contentHash(data)):
				foreign = append(foreign, loc)
				continue
			}
		}
		hashes := append(next.Files[loc], contentHash(want))
		slices.Sort(hashes)
		next.Files[loc] = slices.Compact(hashes)
	}
	if len(foreign) > 0 {
		err := fmt.Errorf("%s: kops would overwrite files it did not write (or that changed since it wrote them): %s; "+
			"kops overwrites only its own files: move them away, or choose another folder", c.ConfigBase, strings.Join(foreign, ", "))
		if unreadable != nil {
			err = fmt.Errorf("%w (the first that cannot be read: %w)", err, unreadable)
		}
		return nil, err
	}
	if err := checkWritable(c, l.Location); err != nil {
		return nil, err
	}
	return next.encode(), nil
}
