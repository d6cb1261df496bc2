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
	"fmt"
	"reflect"
	"strings"
)

// TaskKey identifies a task within one run. Kind is the task type (e.g.
// "ManagedFile") and Name is unique within that kind, so two builders that
// mean the same object produce the same key and collide visibly.
type TaskKey struct {
	Kind string
	Name string
}

// String is "Kind/Name", the form used in reports and errors.
func (k TaskKey) String() string { return k.Kind + "/" + k.Name }

// Compare orders keys by kind, then name: the tie-breaker that makes graph
// order and reports deterministic.
func (k TaskKey) Compare(o TaskKey) int {
	if c := strings.Compare(k.Kind, o.Kind); c != 0 {
		return c
	}
	return strings.Compare(k.Name, o.Name)
}

// validate rejects keys that would print ambiguously: an empty part, or a
// kind containing "/" (names may contain "/", e.g. file locations).
func (k TaskKey) validate() error {
	switch {
	case k.Kind == "":
		return fmt.Errorf("task key %q has an empty kind", k.String())
	case k.Name == "":
		return fmt.Errorf("task key %q has an empty name", k.String())
	case strings.Contains(k.Kind, "/"):
		return fmt.Errorf("task key %q: kind must not contain \"/\"", k.String())
	}
	return nil
}

// Task is one unit of desired state. Plan only reads (the current state) and
// computes what must change; writing is the Target's business, through the
// optional per-target renderer interfaces (see DirectRenderer), so a task
// can be planned against any target without side effects.
type Task interface {
	// Key identifies the task; it must be stable for the task's lifetime.
	Key() TaskKey
	// Dependencies lists the tasks that must have been applied successfully
	// before this one is planned.
	Dependencies() []TaskKey
	// Plan compares the desired state with the current one. It must return
	// a non-nil Change when err is nil; ActionNone means nothing to do.
	Plan(ctx context.Context, c *Context) (*Change, error)
}

// describe renders a task for error messages: its String method when it has
// one (tasks holding file contents should summarize them), else its fields.
func describe(t Task) string {
	if s, ok := t.(fmt.Stringer); ok {
		return s.String()
	}
	return fmt.Sprintf("%#v", t)
}

// isNilTask reports a nil interface or a typed nil pointer, either of which
// would crash on the first method call.
func isNilTask(t Task) bool {
	if t == nil {
		return true
	}
	v := reflect.ValueOf(t)
	return v.Kind() == reflect.Pointer && v.IsNil()
}
