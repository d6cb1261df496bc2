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

// DryRunTarget records what would change and writes nothing; changes accumulate across runs.
type DryRunTarget struct {
	log changeLog
}

var _ Target = (*DryRunTarget)(nil)

func (t *DryRunTarget) Name() string { return "dryrun" }

func (t *DryRunTarget) Render(_ context.Context, _ *Context, task Task, change *Change) error {
	t.log.record(task.Key(), change)
	return nil
}

func (t *DryRunTarget) Changes() []TaskChange { return t.log.changes() }

func (t *DryRunTarget) HasChanges() bool { return len(t.log.changes()) > 0 }

func (t *DryRunTarget) WriteReport(w io.Writer) error {
	return t.WriteReportWith(w, nil)
}

const dryRunTrailer = "Must specify --yes to apply changes"

// WriteReportWith puts the caller's section before the --yes reminder, which comes last.
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
