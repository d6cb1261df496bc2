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
	"container/heap"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Graph is a validated, topologically ordered task set: missing dependencies and cycles are reported
// before anything is planned.
type Graph struct {
	tasks      []Task // topological order: dependencies first
	keys       []TaskKey
	deps       [][]int // deps[i]: indexes (into tasks) that tasks[i] depends on
	dependents [][]int // dependents[i]: indexes that depend on tasks[i]
}

type MissingDependencyError struct {
	Task    TaskKey
	Missing TaskKey
}

func (e *MissingDependencyError) Error() string {
	return fmt.Sprintf("task %s depends on %s, which does not exist (was its builder run, and is the key spelled the same?)", e.Task, e.Missing)
}

// CycleError's Cycle is in dependency order and its last element repeats the first.
type CycleError struct {
	Cycle []TaskKey
}

func (e *CycleError) Error() string {
	parts := make([]string, len(e.Cycle))
	for i, k := range e.Cycle {
		parts[i] = k.String()
	}
	return "dependency cycle: " + strings.Join(parts, " -> ")
}

// BuildGraph orders tasks after their dependencies, ties by smallest key, so the order depends only
// on the tasks. All missing dependencies are reported at once.
func BuildGraph(tasks []Task) (*Graph, error) {
	index := make(map[TaskKey]int, len(tasks))
	for i, t := range tasks {
		if isNilTask(t) {
			return nil, fmt.Errorf("task #%d is nil", i)
		}
		k := t.Key()
		if err := k.validate(); err != nil {
			return nil, err
		}
		if j, dup := index[k]; dup {
			return nil, &DuplicateTaskError{Key: k, Existing: tasks[j], Added: t}
		}
		index[k] = i
	}

	var errs []error
	deps := make([][]int, len(tasks))
	for i, t := range tasks {
		for _, d := range t.Dependencies() {
			j, ok := index[d]
			if !ok {
				errs = append(errs, &MissingDependencyError{Task: t.Key(), Missing: d})
				continue
			}
			if !slices.Contains(deps[i], j) {
				deps[i] = append(deps[i], j)
			}
		}
	}
	if len(errs) > 0 {
		slices.SortFunc(errs, func(a, b error) int {
			ea, eb := a.(*MissingDependencyError), b.(*MissingDependencyError)
			if c := ea.Task.Compare(eb.Task); c != 0 {
				return c
			}
			return ea.Missing.Compare(eb.Missing)
		})
		return nil, errors.Join(errs...)
	}

	keys := make([]TaskKey, len(tasks))
	for i, t := range tasks {
		keys[i] = t.Key()
	}
	order, err := topoSort(keys, deps)
	if err != nil {
		return nil, err
	}
	return newGraph(tasks, keys, deps, order), nil
}

func topoSort(keys []TaskKey, deps [][]int) ([]int, error) {
	pending := make([]int, len(keys)) // unsatisfied dependencies
	dependents := make([][]int, len(keys))
	for i, ds := range deps {
		pending[i] = len(ds)
		for _, d := range ds {
			dependents[d] = append(dependents[d], i)
		}
	}
	ready := &keyHeap{keys: keys}
	for i := range keys {
		if pending[i] == 0 {
			ready.items = append(ready.items, i)
		}
	}
	heap.Init(ready)
	order := make([]int, 0, len(keys))
	for ready.Len() > 0 {
		i := heap.Pop(ready).(int)
		order = append(order, i)
		for _, d := range dependents[i] {
			if pending[d]--; pending[d] == 0 {
				heap.Push(ready, d)
			}
		}
	}
	if len(order) < len(keys) {
		return nil, findCycle(keys, deps, pending)
	}
	return order, nil
}

// findCycle walks smallest unsorted dependencies until a task repeats; the cycle is rotated to its
// smallest key so the message is stable.
func findCycle(keys []TaskKey, deps [][]int, pending []int) *CycleError {
	stuck := func(i int) bool { return pending[i] > 0 }
	smallest := func(cands []int) int {
		best := -1
		for _, c := range cands {
			if stuck(c) && (best < 0 || keys[c].Compare(keys[best]) < 0) {
				best = c
			}
		}
		return best
	}
	all := make([]int, len(keys))
	for i := range all {
		all[i] = i
	}
	seen := map[int]int{} // node -> position in path
	var path []int
	for n := smallest(all); ; n = smallest(deps[n]) {
		if pos, ok := seen[n]; ok {
			path = path[pos:]
			break
		}
		seen[n] = len(path)
		path = append(path, n)
	}
	start := 0
	for i, n := range path {
		if keys[n].Compare(keys[path[start]]) < 0 {
			start = i
		}
	}
	cycle := make([]TaskKey, 0, len(path)+1)
	for i := range path {
		cycle = append(cycle, keys[path[(start+i)%len(path)]])
	}
	return &CycleError{Cycle: append(cycle, cycle[0])}
}

func newGraph(tasks []Task, keys []TaskKey, deps [][]int, order []int) *Graph {
	pos := make([]int, len(order))
	for p, i := range order {
		pos[i] = p
	}
	g := &Graph{
		tasks:      make([]Task, len(order)),
		keys:       make([]TaskKey, len(order)),
		deps:       make([][]int, len(order)),
		dependents: make([][]int, len(order)),
	}
	for p, i := range order {
		g.tasks[p] = tasks[i]
		g.keys[p] = keys[i]
		for _, d := range deps[i] {
			g.deps[p] = append(g.deps[p], pos[d])
			g.dependents[pos[d]] = append(g.dependents[pos[d]], p)
		}
		slices.Sort(g.deps[p])
	}
	for p := range g.dependents {
		slices.Sort(g.dependents[p])
	}
	return g
}

func (g *Graph) Tasks() []Task { return slices.Clone(g.tasks) }

func (g *Graph) Len() int { return len(g.tasks) }

type keyHeap struct {
	keys  []TaskKey
	items []int
}

func (h *keyHeap) Len() int           { return len(h.items) }
func (h *keyHeap) Less(a, b int) bool { return h.keys[h.items[a]].Compare(h.keys[h.items[b]]) < 0 }
func (h *keyHeap) Swap(a, b int)      { h.items[a], h.items[b] = h.items[b], h.items[a] }
func (h *keyHeap) Push(x any)         { h.items = append(h.items, x.(int)) }
func (h *keyHeap) Pop() any {
	last := h.items[len(h.items)-1]
	h.items = h.items[:len(h.items)-1]
	return last
}
