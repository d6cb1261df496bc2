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
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"slices"
)

// DefaultParallelism overlaps state-store round trips without tripping API rate limits.
const DefaultParallelism = 4

type RunOptions struct {
	// Parallelism zero or negative means DefaultParallelism.
	Parallelism int
}

type Status int

const (
	StatusSucceeded Status = iota + 1
	StatusFailed
	// StatusSkipped: a dependency did not succeed or the run was cancelled.
	StatusSkipped
)

func (s Status) String() string {
	switch s {
	case StatusSucceeded:
		return "succeeded"
	case StatusFailed:
		return "failed"
	case StatusSkipped:
		return "skipped"
	}
	return fmt.Sprintf("Status(%d)", int(s))
}

type Result struct {
	Key    TaskKey
	Status Status
	// Change is nil when planning failed or the task was skipped.
	Change *Change
	Err    error
	// SkippedBecause lists, sorted, the failed tasks this one depends on.
	SkippedBecause []TaskKey
}

// Run plans every task and hands changes to target, a task starting once its dependencies succeeded.
// A failure stops only its dependents, so one run reports every problem; results are in graph order
// and the error is a *RunError.
func Run(ctx context.Context, g *Graph, c *Context, target Target, opts RunOptions) ([]Result, error) {
	switch {
	case g == nil:
		return nil, errors.New("run: no task graph")
	case c == nil:
		return nil, errors.New("run: no context")
	case target == nil:
		return nil, errors.New("run: no target")
	}
	parallelism := opts.Parallelism
	if parallelism <= 0 {
		parallelism = DefaultParallelism
	}

	n := g.Len()
	results := make([]Result, n)
	pending := make([]int, n)
	ready := &intHeap{}
	for i := range n {
		pending[i] = len(g.deps[i])
		if pending[i] == 0 {
			ready.items = append(ready.items, i)
		}
	}
	heap.Init(ready)

	type finished struct {
		i      int
		result Result
	}
	done := make(chan finished, parallelism) // never blocks a worker
	running, completed := 0, 0
	complete := func(i int) {
		completed++
		for _, d := range g.dependents[i] {
			if pending[d]--; pending[d] == 0 {
				heap.Push(ready, d)
			}
		}
	}

	for completed < n {
		for running < parallelism && ready.Len() > 0 {
			i := heap.Pop(ready).(int)
			if skipped, ok := skipResult(ctx, g, results, i); ok {
				results[i] = skipped
				complete(i)
				continue
			}
			running++
			go func(i int) {
				done <- finished{i, runTask(ctx, g.tasks[i], c, target)}
			}(i)
		}
		if running == 0 {
			break // unreachable for a graph from BuildGraph; avoids a deadlock otherwise
		}
		f := <-done
		running--
		results[f.i] = f.result
		complete(f.i)
	}
	return results, newRunError(results)
}

func skipResult(ctx context.Context, g *Graph, results []Result, i int) (Result, bool) {
	r := Result{Key: g.keys[i], Status: StatusSkipped}
	for _, d := range g.deps[i] {
		switch dep := results[d]; dep.Status {
		case StatusFailed:
			r.SkippedBecause = append(r.SkippedBecause, dep.Key)
		case StatusSkipped:
			r.SkippedBecause = append(r.SkippedBecause, dep.SkippedBecause...)
		}
	}
	if len(r.SkippedBecause) > 0 {
		slices.SortFunc(r.SkippedBecause, TaskKey.Compare)
		r.SkippedBecause = slices.Compact(r.SkippedBecause)
		return r, true
	}
	// A dependency skipped by cancellation leaves SkippedBecause empty; the context is done here too.
	if ctx.Err() != nil {
		r.Err = context.Cause(ctx)
		return r, true
	}
	return r, false
}

// runTask recovers a panicking task so it cannot take the run and other tasks' reports down.
func runTask(ctx context.Context, task Task, c *Context, target Target) (r Result) {
	r.Key = task.Key()
	r.Status = StatusFailed
	defer func() {
		if p := recover(); p != nil {
			r.Status = StatusFailed
			r.Err = fmt.Errorf("task %s panicked: %v\n%s", r.Key, p, debug.Stack())
		}
	}()
	change, err := task.Plan(ctx, c)
	if err != nil {
		r.Err = fmt.Errorf("planning %s: %w", r.Key, err)
		return r
	}
	if change == nil {
		r.Err = fmt.Errorf("planning %s: Plan returned neither a change nor an error", r.Key)
		return r
	}
	r.Change = change
	if err := target.Render(ctx, c, task, change); err != nil {
		r.Err = fmt.Errorf("rendering %s with target %q: %w", r.Key, target.Name(), err)
		return r
	}
	r.Status = StatusSucceeded
	return r
}

// intHeap starts the earliest ready task in graph order, so Parallelism 1 follows it exactly.
type intHeap struct{ items []int }

func (h *intHeap) Len() int           { return len(h.items) }
func (h *intHeap) Less(a, b int) bool { return h.items[a] < h.items[b] }
func (h *intHeap) Swap(a, b int)      { h.items[a], h.items[b] = h.items[b], h.items[a] }
func (h *intHeap) Push(x any)         { h.items = append(h.items, x.(int)) }
func (h *intHeap) Pop() any {
	last := h.items[len(h.items)-1]
	h.items = h.items[:len(h.items)-1]
	return last
}
