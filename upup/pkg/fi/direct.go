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

// DirectRenderer is only called for changes other than ActionNone.
type DirectRenderer interface {
	RenderDirect(ctx context.Context, c *Context, change *Change) error
}

// DirectTarget applies changes (`kops update cluster --yes`) and remembers them for the report.
type DirectTarget struct {
	log changeLog
}

var _ Target = (*DirectTarget)(nil)

func (t *DirectTarget) Name() string { return "direct" }

// Render fails for a task without a DirectRenderer even when nothing changes, so the gap shows on
// the first run.
func (t *DirectTarget) Render(ctx context.Context, c *Context, task Task, change *Change) error {
	r, ok := task.(DirectRenderer)
	if !ok {
		return noRenderer(task, t, "fi.DirectRenderer")
	}
	if change.Action == ActionNone {
		t.log.record(task.Key(), change) // what it left alone, if anything
		return nil
	}
	if err := r.RenderDirect(ctx, c, change); err != nil {
		return err
	}
	t.log.record(task.Key(), change)
	return nil
}

func (t *DirectTarget) Changes() []TaskChange { return t.log.changes() }

func (t *DirectTarget) WriteReport(w io.Writer) error {
	if err := writeLeftAlone(w, t.log.untouched()); err != nil {
		return err
	}
	return writeReport(w, t.log.changes(), reportWording{
		create: "Created resources",
		modify: "Modified resources",
		delete: "Deleted resources",
	})
}
