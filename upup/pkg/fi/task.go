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

// TaskKey is Kind and a Name unique within it, so builders meaning the same object collide visibly.
type TaskKey struct {
	Kind string
	Name string
}

func (k TaskKey) String() string { return k.Kind + "/" + k.Name }

// Compare orders by kind, then name: the tie-breaker that makes order and reports deterministic.
func (k TaskKey) Compare(o TaskKey) int {
	if c := strings.Compare(k.Kind, o.Kind); c != 0 {
		return c
	}
	return strings.Compare(k.Name, o.Name)
}

// validate rejects keys that would print ambiguously (an empty part, a "/" in the kind).
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

// Task is one unit of desired state. Plan only reads; writing is the Target's business through
// per-target renderer interfaces, so a task can be planned against any target without side effects.
type Task interface {
	Key() TaskKey
	// Dependencies must have been applied successfully before this task is planned.
	Dependencies() []TaskKey
	// Plan returns a non-nil Change when err is nil; ActionNone means nothing to do.
	Plan(ctx context.Context, c *Context) (*Change, error)
}

func describe(t Task) string {
	if s, ok := t.(fmt.Stringer); ok {
		return s.String()
	}
	return fmt.Sprintf("%#v", t)
}

// isNilTask catches a typed nil pointer too, which would crash on the first method call.
func isNilTask(t Task) bool {
	if t == nil {
		return true
	}
	v := reflect.ValueOf(t)
	return v.Kind() == reflect.Pointer && v.IsNil()
}
