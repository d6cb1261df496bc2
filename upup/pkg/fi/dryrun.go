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
	"context"
	"io"
)

// DryRunTarget records what would change and writes nothing, so
// `kops update cluster` without --yes can show the plan. The zero value is
// ready to use; changes accumulate across runs that share the target.
type DryRunTarget struct {
	log changeLog
}

var _ Target = (*DryRunTarget)(nil)

func (t *DryRunTarget) Name() string { return "dryrun" }

// Render records change; it never needs a renderer from the task.
func (t *DryRunTarget) Render(_ context.Context, _ *Context, task Task, change *Change) error {
	t.log.record(task.Key(), change)
	return nil
}

// Changes returns the planned changes (never ActionNone), ordered by key.
func (t *DryRunTarget) Changes() []TaskChange { return t.log.changes() }

// HasChanges reports whether applying would change anything.
func (t *DryRunTarget) HasChanges() bool { return len(t.log.changes()) > 0 }

// WriteReport prints the planned changes in kops's dry-run format, ending
// with the reminder that --yes applies them, or "No changes need to be
// applied".
func (t *DryRunTarget) WriteReport(w io.Writer) error {
	return t.WriteReportWith(w, nil)
}

// dryRunTrailer ends a dry run that would change something.
const dryRunTrailer = "Must specify --yes to apply changes"

// WriteReportWith prints the planned changes, then the caller's section (the
// cloud resources a dry run lists), and the reminder that --yes applies the
// changes last of all, where a reader of the dry run looks for it.
func (t *DryRunTarget) WriteReportWith(w io.Writer, section func(io.Writer) error) error {
	if err := writeLeftAlone(w, t.log.untouched()); err != nil {
		return err
	}
	changes := t.log.changes()
	err := writeReport(w, changes, reportWording{
		create: "Will create resources",
		modify: "Will modify resources",
		delete: "Will delete resources",
	})
	if err != nil || section == nil {
		if err == nil && len(changes) > 0 {
			_, err = io.WriteString(w, dryRunTrailer+"\n")
		}
		return err
	}
	// Each listed change ends with a blank line; the one line saying there are none does not.
	if len(changes) == 0 {
		if _, err := io.WriteString(w, "\n"); err != nil {
			return err
		}
	}
	if err := section(w); err != nil {
		return err
	}
	if len(changes) > 0 {
		_, err = io.WriteString(w, dryRunTrailer+"\n")
	}
	return err
}
