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

package fi

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
)

type TaskChange struct {
	Key    TaskKey
	Change *Change
}

// changeLog is shared by the targets so a dry run and an apply report the same way.
type changeLog struct {
	mu        sync.Mutex
	entries   []TaskChange
	leftAlone []string
}

func (l *changeLog) record(key TaskKey, change *Change) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.leftAlone = append(l.leftAlone, change.LeftAlone...)
	if change.Action != ActionNone {
		l.entries = append(l.entries, TaskChange{Key: key, Change: change})
	}
}

func (l *changeLog) untouched() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := slices.Clone(l.leftAlone)
	slices.Sort(out)
	return slices.Compact(out)
}

const leftAloneHeading = "Left alone (not written by kops, or changed since kops wrote them)"

func writeLeftAlone(w io.Writer, names []string) error {
	if len(names) == 0 {
		return nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s:\n", leftAloneHeading)
	for _, n := range names {
		fmt.Fprintf(&b, "  %s\n", n)
	}
	b.WriteString("\n")
	_, err := io.WriteString(w, b.String())
	return err
}

func (l *changeLog) changes() []TaskChange {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := slices.Clone(l.entries)
	slices.SortStableFunc(out, func(a, b TaskChange) int { return a.Key.Compare(b.Key) })
	return out
}

type reportWording struct {
	create, modify, delete string
	trailer                string // printed after a non-empty report
}

const noChangesMessage = "No changes need to be applied"

// writeReport prints changes grouped as create, modify, delete; modified fields print "old -> new"
// and a Diff follows the fields, indented.
func writeReport(w io.Writer, changes []TaskChange, words reportWording) error {
	var b strings.Builder
	sections := []struct {
		action  Action
		heading string
	}{{ActionCreate, words.create}, {ActionModify, words.modify}, {ActionDelete, words.delete}}
	for _, s := range sections {
		first := true
		for _, tc := range changes {
			if tc.Change.Action != s.action {
				continue
			}
			if first {
				fmt.Fprintf(&b, "%s:\n", s.heading)
				first = false
			}
			writeTaskChange(&b, tc)
		}
	}
	if b.Len() == 0 {
		b.WriteString(noChangesMessage + "\n")
	} else if words.trailer != "" {
		b.WriteString(words.trailer + "\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func writeTaskChange(b *strings.Builder, tc TaskChange) {
	fmt.Fprintf(b, "  %s\n", tc.Key)
	for _, f := range tc.Change.Fields {
		value := f.New
		switch {
		case tc.Change.Action == ActionDelete:
			value = f.Old
		case tc.Change.Action == ActionModify && f.Old != f.New:
			value = f.Old + " -> " + f.New
		}
		fmt.Fprintf(b, "  \t%-20s\t%s\n", f.Name, value)
	}
	if diff := strings.TrimSuffix(tc.Change.Diff, "\n"); diff != "" {
		for _, line := range strings.Split(diff, "\n") {
			fmt.Fprintf(b, "  \t    %s\n", line)
		}
	}
	b.WriteString("\n")
}

// WriteChanges prints changes in the report's layout, for a section a caller adds below a report.
func WriteChanges(w io.Writer, heading string, changes []TaskChange) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s:\n", heading)
	for _, tc := range changes {
		writeTaskChange(&b, tc)
	}
	_, err := io.WriteString(w, b.String())
	return err
}
