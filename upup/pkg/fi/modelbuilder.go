package fi

import (
	"fmt"
	"reflect"
	"slices"
	"sync"
)

// ModelBuilderContext collects the tasks that model builders produce. Two
// builders may legitimately ask for the very same object (e.g. a shared
// RBAC role), so an identical duplicate is accepted once; a different task
// under the same key is a modelling bug and is reported with both versions
// instead of one silently winning.
//
// The zero value is ready to use; it is safe for concurrent use.
type ModelBuilderContext struct {
	mu    sync.Mutex
	tasks map[TaskKey]Task
}

// DuplicateTaskError reports two different tasks with the same key.
type DuplicateTaskError struct {
	Key      TaskKey
	Existing Task
	Added    Task
}

func (e *DuplicateTaskError) Error() string {
	return fmt.Sprintf("duplicate task %s: already have %s, cannot also add %s; two builders produce the same key with different contents",
		e.Key, describe(e.Existing), describe(e.Added))
}

// AddTask adds t, or does nothing when an identical task (reflect.DeepEqual)
// with the same key is already present.
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

// Tasks returns the collected tasks ordered by key, independent of the
// order in which builders ran.
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
