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
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDryRunReport(t *testing.T) {
	create := &Change{Action: ActionCreate, Fields: []FieldChange{
		{Name: "Location", New: "addons/x.yaml"},
		{Name: "Contents", New: "3 bytes, sha256 abc"},
	}}
	modify := &Change{
		Action: ActionModify,
		Fields: []FieldChange{{Name: "Contents", Old: "1 bytes", New: "2 bytes"}, {Name: "Unchanged", Old: "v", New: "v"}},
		Diff:   "--- x (current)\n+++ x (desired)\n@@ -1 +1 @@\n-a\n+b\n",
	}
	remove := &Change{Action: ActionDelete, Fields: []FieldChange{{Name: "Location", Old: "old.yaml"}}}
	none := &Change{Action: ActionNone}

	tests := []struct {
		name    string
		changes []TaskChange // recorded in this (unsorted) order
		want    string
	}{
		{
			name:    "nothing to do",
			changes: []TaskChange{{key("F", "a"), none}},
			want:    "No changes need to be applied\n",
		},
		{
			name:    "sections in create, modify, delete order; tasks sorted by key",
			changes: []TaskChange{{key("F", "del"), remove}, {key("F", "mod"), modify}, {key("F", "z"), create}, {key("F", "a"), create}, {key("F", "same"), none}},
			want: "Will create resources:\n" +
				"  F/a\n" +
				"  \tLocation            \taddons/x.yaml\n" +
				"  \tContents            \t3 bytes, sha256 abc\n" +
				"\n" +
				"  F/z\n" +
				"  \tLocation            \taddons/x.yaml\n" +
				"  \tContents            \t3 bytes, sha256 abc\n" +
				"\n" +
				"Will modify resources:\n" +
				"  F/mod\n" +
				"  \tContents            \t1 bytes -> 2 bytes\n" +
				"  \tUnchanged           \tv\n" +
				"  \t    --- x (current)\n" +
				"  \t    +++ x (desired)\n" +
				"  \t    @@ -1 +1 @@\n" +
				"  \t    -a\n" +
				"  \t    +b\n" +
				"\n" +
				"Will delete resources:\n" +
				"  F/del\n" +
				"  \tLocation            \told.yaml\n" +
				"\n" +
				"Must specify --yes to apply changes\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var target DryRunTarget
			for _, c := range tt.changes {
				require.NoError(t, target.Render(context.Background(), &Context{}, &funcTask{key: c.Key}, c.Change))
			}
			var out strings.Builder
			require.NoError(t, target.WriteReport(&out))
			assert.Equal(t, tt.want, out.String())
			assert.Equal(t, tt.want != "No changes need to be applied\n", target.HasChanges())
		})
	}
}

// TestDryRunReportWithSection: a section the caller adds (the cloud resources, where terraform
// would write) comes after the changes and before the reminder, which stays the last line.
func TestDryRunReportWithSection(t *testing.T) {
	create := &Change{Action: ActionCreate, Fields: []FieldChange{{Name: "Location", New: "x"}}}
	section := func(w io.Writer) error {
		_, err := io.WriteString(w, "Cloud resources:\n  C/a\n\n")
		return err
	}
	tests := []struct {
		name    string
		changes []TaskChange
		want    string
	}{
		{"changes", []TaskChange{{key("F", "a"), create}},
			"Will create resources:\n  F/a\n  \tLocation            \tx\n\nCloud resources:\n  C/a\n\nMust specify --yes to apply changes\n"},
		{"no changes: no reminder", []TaskChange{{key("F", "a"), &Change{Action: ActionNone}}},
			"No changes need to be applied\n\nCloud resources:\n  C/a\n\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var target DryRunTarget
			for _, c := range tt.changes {
				require.NoError(t, target.Render(context.Background(), &Context{}, &funcTask{key: c.Key}, c.Change))
			}
			var out strings.Builder
			require.NoError(t, target.WriteReportWith(&out, section))
			assert.Equal(t, tt.want, out.String())
		})
	}
}

// directTask records RenderDirect calls and can fail them.
type directTask struct {
	funcTask
	renders []Action
	err     error
}

func (d *directTask) RenderDirect(_ context.Context, _ *Context, change *Change) error {
	d.renders = append(d.renders, change.Action)
	return d.err
}

func TestDirectTarget(t *testing.T) {
	changed := &directTask{funcTask: funcTask{key: key("D", "changed"), plan: func(context.Context) (*Change, error) {
		return &Change{Action: ActionCreate, Fields: []FieldChange{{Name: "Location", New: "x"}}}, nil
	}}}
	unchanged := &directTask{funcTask: funcTask{key: key("D", "unchanged")}}
	graph := buildGraph(t, changed, unchanged)

	var target DirectTarget
	_, err := Run(context.Background(), graph, &Context{}, &target, RunOptions{})
	require.NoError(t, err)
	assert.Equal(t, []Action{ActionCreate}, changed.renders)
	assert.Empty(t, unchanged.renders, "ActionNone is not rendered")

	var out strings.Builder
	require.NoError(t, target.WriteReport(&out))
	assert.Equal(t, "Created resources:\n  D/changed\n  \tLocation            \tx\n\n", out.String())
}

func TestDirectTargetDoesNotReportFailedRenders(t *testing.T) {
	failing := &directTask{err: assert.AnError, funcTask: funcTask{key: key("D", "x"), plan: func(context.Context) (*Change, error) {
		return &Change{Action: ActionModify}, nil
	}}}
	var target DirectTarget
	_, err := Run(context.Background(), buildGraph(t, failing), &Context{}, &target, RunOptions{})
	require.ErrorIs(t, err, assert.AnError)
	assert.Contains(t, err.Error(), `rendering D/x with target "direct"`)
	assert.Empty(t, target.Changes())
}

func TestTargetWithoutRenderer(t *testing.T) {
	// funcTask has no RenderDirect; even an unchanged task must be refused.
	graph := buildGraph(t, &funcTask{key: key("Plain", "task")})
	_, err := Run(context.Background(), graph, &Context{}, &DirectTarget{}, RunOptions{})
	require.Error(t, err)
	var noRenderer *NoRendererError
	require.ErrorAs(t, err, &noRenderer)
	assert.Equal(t, key("Plain", "task"), noRenderer.Task)
	assert.Equal(t, "direct", noRenderer.Target)
	assert.Contains(t, err.Error(), `task Plain/task (*fi.funcTask) cannot be rendered by target "direct": it does not implement fi.DirectRenderer`)
}

// TestReportNamesWhatWasLeftAlone: files a task did not touch because kops did not write them are
// listed in both reports, apart from the changes, and are not a change themselves.
func TestReportNamesWhatWasLeftAlone(t *testing.T) {
	change := &Change{Action: ActionNone, LeftAlone: []string{"data/key.pem", "data/README.txt"}}
	task := &directTask{funcTask: funcTask{key: key("K", "n"), plan: func(context.Context) (*Change, error) { return change, nil }}}
	for _, target := range []interface {
		Target
		WriteReport(w io.Writer) error
		Changes() []TaskChange
	}{&DryRunTarget{}, &DirectTarget{}} {
		_, err := Run(context.Background(), buildGraph(t, task), &Context{}, target, RunOptions{})
		require.NoError(t, err)
		assert.Empty(t, target.Changes())
		var b strings.Builder
		require.NoError(t, target.WriteReport(&b))
		assert.Equal(t, "Left alone (not written by kops, or changed since kops wrote them):\n  data/README.txt\n  data/key.pem\n\nNo changes need to be applied\n", b.String())
	}
}
