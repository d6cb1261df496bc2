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
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestAddTask(t *testing.T) {
	tests := []struct {
		name      string
		add       []Task
		wantErr   []string // substrings of the error from the last AddTask
		wantTasks []string
	}{
		{
			name:      "distinct tasks are kept in key order",
			add:       []Task{task("B", "b"), task("A", "z"), task("A", "a")},
			wantTasks: []string{"A/a", "A/z", "B/b"},
		},
		{
			name: "identical duplicate is accepted once",
			add: []Task{
				&staticTask{K: key("File", "x"), D: []TaskKey{key("A", "a")}, Payload: "same"},
				&staticTask{K: key("File", "x"), D: []TaskKey{key("A", "a")}, Payload: "same"},
			},
			wantTasks: []string{"File/x"},
		},
		{
			name: "different duplicate names the key and both tasks",
			add: []Task{
				&staticTask{K: key("File", "x"), Payload: "first version"},
				&staticTask{K: key("File", "x"), Payload: "second version"},
			},
			wantErr:   []string{"duplicate task File/x", `payload "first version"`, `payload "second version"`},
			wantTasks: []string{"File/x"},
		},
		{
			name: "duplicates differing only in dependencies conflict",
			add: []Task{
				&staticTask{K: key("File", "x"), D: []TaskKey{key("A", "a")}},
				&staticTask{K: key("File", "x")},
			},
			wantErr:   []string{"duplicate task File/x"},
			wantTasks: []string{"File/x"},
		},
		{name: "empty name", add: []Task{task("File", "")}, wantErr: []string{"empty name"}, wantTasks: []string{}},
		{name: "empty kind", add: []Task{task("", "x")}, wantErr: []string{"empty kind"}, wantTasks: []string{}},
		{name: "slash in kind", add: []Task{task("a/b", "x")}, wantErr: []string{`kind must not contain "/"`}, wantTasks: []string{}},
		{name: "typed nil", add: []Task{(*staticTask)(nil)}, wantErr: []string{"nil task"}, wantTasks: []string{}},
		{name: "untyped nil", add: []Task{nil}, wantErr: []string{"nil task"}, wantTasks: []string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var m ModelBuilderContext
			var err error
			for i, task := range tt.add {
				err = m.AddTask(task)
				if i < len(tt.add)-1 {
					require.NoError(t, err)
				}
			}
			if tt.wantErr == nil {
				assert.NoError(t, err)
			} else {
				require.Error(t, err)
				for _, want := range tt.wantErr {
					assert.Contains(t, err.Error(), want)
				}
			}
			assert.Equal(t, tt.wantTasks, keysOf(m.Tasks()))
		})
	}
}

func TestAddTaskDuplicateErrorType(t *testing.T) {
	var m ModelBuilderContext
	first := &staticTask{K: key("File", "x"), Payload: "1"}
	second := &staticTask{K: key("File", "x"), Payload: "2"}
	require.NoError(t, m.AddTask(first))
	err := m.AddTask(second)
	var dup *DuplicateTaskError
	require.ErrorAs(t, err, &dup)
	assert.Equal(t, key("File", "x"), dup.Key)
	assert.Same(t, first, dup.Existing)
	assert.Same(t, second, dup.Added)
	assert.Same(t, first, m.Tasks()[0], "the first task stays")
}
