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
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func buildGraph(t testing.TB, tasks ...Task) *Graph {
	t.Helper()
	g, err := BuildGraph(tasks)
	require.NoError(t, err)
	return g
}

// gauge tracks how many Plan calls are in flight and the highest count seen.
type gauge struct{ now, max, started atomic.Int32 }

func (g *gauge) enter() {
	g.started.Add(1)
	n := g.now.Add(1)
	for {
		m := g.max.Load()
		if n <= m || g.max.CompareAndSwap(m, n) {
			return
		}
	}
}

func (g *gauge) leave() { g.now.Add(-1) }

func TestRunRespectsParallelism(t *testing.T) {
	tests := []struct {
		name        string
		parallelism int
		wantMax     int32
	}{
		{name: "serial", parallelism: 1, wantMax: 1},
		{name: "three", parallelism: 3, wantMax: 3},
		{name: "default", parallelism: 0, wantMax: DefaultParallelism},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var g gauge
			release := make(chan struct{})
			var tasks []Task
			for i := range 12 {
				tasks = append(tasks, &funcTask{key: key("T", itoa3(i)), plan: func(ctx context.Context) (*Change, error) {
					g.enter()
					defer g.leave()
					select {
					case <-release:
						return &Change{Action: ActionNone}, nil
					case <-ctx.Done():
						return nil, ctx.Err()
					}
				}})
			}
			graph := buildGraph(t, tasks...)

			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			type outcome struct {
				results []Result
				err     error
			}
			done := make(chan outcome, 1)
			go func() {
				r, err := Run(ctx, graph, &Context{}, &DryRunTarget{}, RunOptions{Parallelism: tt.parallelism})
				done <- outcome{r, err}
			}()

			// The first wantMax tasks block until released; no further task
			// may start while they hold every slot.
			require.Eventually(t, func() bool { return g.now.Load() >= tt.wantMax }, 5*time.Second, time.Millisecond)
			time.Sleep(50 * time.Millisecond)
			assert.Equal(t, tt.wantMax, g.started.Load(), "tasks started beyond the bound")
			close(release)

			out := <-done
			require.NoError(t, out.err)
			assert.Equal(t, tt.wantMax, g.max.Load())
			assert.Len(t, out.results, 12)
		})
	}
}

func TestRunOverlapsIndependentTasks(t *testing.T) {
	// Each task waits until all have arrived; that can only happen when they
	// run at the same time.
	const n = 3
	var arrived sync.WaitGroup
	arrived.Add(n)
	all := make(chan struct{})
	go func() { arrived.Wait(); close(all) }()
	var tasks []Task
	for i := range n {
		tasks = append(tasks, &funcTask{key: key("T", itoa3(i)), plan: func(context.Context) (*Change, error) {
			arrived.Done()
			select {
			case <-all:
				return &Change{Action: ActionNone}, nil
			case <-time.After(5 * time.Second):
				return nil, errors.New("independent tasks did not run concurrently")
			}
		}})
	}
	_, err := Run(context.Background(), buildGraph(t, tasks...), &Context{}, &DryRunTarget{}, RunOptions{Parallelism: n})
	assert.NoError(t, err)
}

// orderTarget fails a render whose dependencies have not all been rendered,
// and records completion so dependents can be checked the same way.
type orderTarget struct {
	mu       sync.Mutex
	rendered map[TaskKey]bool
	deps     map[TaskKey][]TaskKey
}

func (o *orderTarget) Name() string { return "order" }

func (o *orderTarget) check(k TaskKey) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	for _, d := range o.deps[k] {
		if !o.rendered[d] {
			return fmt.Errorf("%s ran before its dependency %s", k, d)
		}
	}
	return nil
}

func (o *orderTarget) Render(_ context.Context, _ *Context, task Task, _ *Change) error {
	if err := o.check(task.Key()); err != nil {
		return err
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	o.rendered[task.Key()] = true
	return nil
}

func TestRunOrderIsDeterministicAndRespectsDependencies(t *testing.T) {
	target := &orderTarget{deps: map[TaskKey][]TaskKey{}}
	rng := rand.New(rand.NewPCG(3, 4))
	var tasks []Task
	for i := range 60 {
		k := key("T", itoa3(i))
		var deps []TaskKey
		for range rng.IntN(3) {
			if i > 0 {
				deps = append(deps, key("T", itoa3(rng.IntN(i))))
			}
		}
		target.deps[k] = deps
		delay := time.Duration(rng.IntN(300)) * time.Microsecond
		tasks = append(tasks, &funcTask{key: k, deps: deps, plan: func(context.Context) (*Change, error) {
			if err := target.check(k); err != nil {
				return nil, err
			}
			time.Sleep(delay)
			return &Change{Action: ActionCreate}, nil
		}})
	}
	graph := buildGraph(t, tasks...)
	want := keysOf(graph.Tasks())

	for run := range 30 {
		target.rendered = map[TaskKey]bool{}
		results, err := Run(context.Background(), graph, &Context{}, target, RunOptions{Parallelism: 8})
		require.NoError(t, err, "run %d", run)
		require.Equal(t, want, resultKeys(results), "run %d", run)
		for _, r := range results {
			require.Equal(t, StatusSucceeded, r.Status)
			require.Equal(t, ActionCreate, r.Change.Action)
		}
	}
}

var (
	errPlanA = errors.New("plan a broke")
	errPlanE = errors.New("plan e broke")
)

func TestRunFailureSkipsDependentsOnly(t *testing.T) {
	var mu sync.Mutex
	planned := map[string]bool{}
	mk := func(name string, err error, deps ...TaskKey) Task {
		return &funcTask{key: key("T", name), deps: deps, plan: func(context.Context) (*Change, error) {
			mu.Lock()
			planned[name] = true
			mu.Unlock()
			if err != nil {
				return nil, err
			}
			return &Change{Action: ActionCreate}, nil
		}}
	}
	graph := buildGraph(t,
		mk("a", errPlanA),
		mk("b", nil, key("T", "a")),
		mk("c", nil, key("T", "b")),
		mk("d", nil),
		mk("e", errPlanE),
		mk("f", nil, key("T", "c"), key("T", "e"), key("T", "d")),
		mk("g", nil, key("T", "d")),
	)
	for _, parallelism := range []int{1, 4} {
		t.Run(fmt.Sprint("parallelism ", parallelism), func(t *testing.T) {
			clear(planned)
			results, err := Run(context.Background(), graph, &Context{}, &DryRunTarget{}, RunOptions{Parallelism: parallelism})
			require.Error(t, err)

			got := map[string]Result{}
			for _, r := range results {
				got[r.Key.Name] = r
			}
			assert.Equal(t, StatusFailed, got["a"].Status)
			assert.ErrorIs(t, got["a"].Err, errPlanA)
			assert.Equal(t, StatusFailed, got["e"].Status)
			assert.Equal(t, StatusSucceeded, got["d"].Status)
			assert.Equal(t, StatusSucceeded, got["g"].Status, "unrelated to any failure")
			assert.Equal(t, StatusSkipped, got["b"].Status)
			assert.Equal(t, []TaskKey{key("T", "a")}, got["b"].SkippedBecause)
			assert.Equal(t, []TaskKey{key("T", "a")}, got["c"].SkippedBecause)
			assert.Equal(t, []TaskKey{key("T", "a"), key("T", "e")}, got["f"].SkippedBecause)
			assert.Nil(t, got["f"].Change)

			mu.Lock()
			assert.Equal(t, map[string]bool{"a": true, "d": true, "e": true, "g": true}, planned, "skipped tasks must not be planned")
			mu.Unlock()

			assert.ErrorIs(t, err, errPlanA)
			assert.ErrorIs(t, err, errPlanE)
			var runErr *RunError
			require.ErrorAs(t, err, &runErr)
			assert.Equal(t, "2 task(s) failed, 3 skipped:\n"+
				"  planning T/a: plan a broke\n"+
				"  planning T/e: plan e broke\n"+
				"  T/b skipped: depends on failed T/a\n"+
				"  T/c skipped: depends on failed T/a\n"+
				"  T/f skipped: depends on failed T/a, T/e", err.Error())
		})
	}
}

func TestRunBrokenTasks(t *testing.T) {
	tests := []struct {
		name    string
		plan    func(context.Context) (*Change, error)
		wantErr string
	}{
		{
			name:    "nil change without error",
			plan:    func(context.Context) (*Change, error) { return nil, nil },
			wantErr: "planning T/bad: Plan returned neither a change nor an error",
		},
		{
			name:    "panic",
			plan:    func(context.Context) (*Change, error) { panic("oops") },
			wantErr: "task T/bad panicked: oops",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			graph := buildGraph(t,
				&funcTask{key: key("T", "bad"), plan: tt.plan},
				&funcTask{key: key("T", "dependent"), deps: []TaskKey{key("T", "bad")}},
				&funcTask{key: key("T", "fine")},
			)
			results, err := Run(context.Background(), graph, &Context{}, &DryRunTarget{}, RunOptions{})
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.wantErr)
			require.Len(t, results, 3)
			assert.Equal(t, []Status{StatusFailed, StatusSkipped, StatusSucceeded},
				[]Status{results[0].Status, results[1].Status, results[2].Status})
		})
	}
}

func TestRunCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	graph := buildGraph(t,
		&funcTask{key: key("T", "a"), plan: func(context.Context) (*Change, error) {
			cancel()
			return &Change{Action: ActionNone}, nil
		}},
		&funcTask{key: key("T", "b"), deps: []TaskKey{key("T", "a")}},
		&funcTask{key: key("T", "c"), deps: []TaskKey{key("T", "b")}},
	)
	results, err := Run(ctx, graph, &Context{}, &DryRunTarget{}, RunOptions{Parallelism: 1})
	require.Error(t, err)
	assert.ErrorIs(t, err, context.Canceled)
	assert.Equal(t, StatusSucceeded, results[0].Status)
	for _, r := range results[1:] {
		assert.Equal(t, StatusSkipped, r.Status)
		assert.ErrorIs(t, r.Err, context.Canceled)
	}
}

func TestRunRejectsMissingArguments(t *testing.T) {
	g := buildGraph(t)
	_, err := Run(context.Background(), nil, &Context{}, &DryRunTarget{}, RunOptions{})
	assert.ErrorContains(t, err, "no task graph")
	_, err = Run(context.Background(), g, nil, &DryRunTarget{}, RunOptions{})
	assert.ErrorContains(t, err, "no context")
	_, err = Run(context.Background(), g, &Context{}, nil, RunOptions{})
	assert.ErrorContains(t, err, "no target")
}
