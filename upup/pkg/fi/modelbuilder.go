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
	"reflect"
	"slices"
	"sync"
)

// ModelBuilderContext collects tasks: an identical duplicate (a shared object) is accepted once, a
// different task under the same key is reported with both. Zero value ready; safe for concurrent use.
type ModelBuilderContext struct {
	mu    sync.Mutex
	tasks map[TaskKey]Task
}

type DuplicateTaskError struct {
	Key      TaskKey
	Existing Task
	Added    Task
}

func (e *DuplicateTaskError) Error() string {
	return fmt.Sprintf("duplicate task %s: already have %s, cannot also add %s; two builders produce the same key with different contents",
		e.Key, describe(e.Existing), describe(e.Added))
}

func (m *ModelBuilderContext) AddTask(t Task) error {
	if isNilTask(t) {
		return fmt.Errorf("cannot add a nil task")
	}
	key := t.Key()
	if err := key.validate(); err != nil {
		return fmt.Errorf("adding task %s: %w", describe(t), err)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if existing, ok := m.tasks[key]; ok {
		if reflect.DeepEqual(existing, t) {
			return nil
		}
		return &DuplicateTaskError{Key: key, Existing: existing, Added: t}
	}
	if m.tasks == nil {
		m.tasks = map[TaskKey]Task{}
	}
	m.tasks[key] = t
	return nil
}

// Tasks returns the tasks ordered by key, whatever order builders ran in.
func (m *ModelBuilderContext) Tasks() []Task {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]Task, 0, len(m.tasks))
	for _, t := range m.tasks {
		out = append(out, t)
	}
	slices.SortFunc(out, func(a, b Task) int { return a.Key().Compare(b.Key()) })
	return out
}
