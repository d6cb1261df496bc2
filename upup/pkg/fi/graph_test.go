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
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestBuildGraphOrder(t *testing.T) {
	tests := []struct {
		name  string
		tasks []Task
		want  []string
	}{
		{name: "empty", tasks: nil, want: []string{}},
		{
			name:  "independent tasks sort by kind then name",
			tasks: []Task{task("B", "a"), task("A", "b"), task("A", "a"), task("AB", "a")},
			want:  []string{"A/a", "A/b", "AB/a", "B/a"},
		},
		{
			name: "dependencies come first even when their key sorts later",
			tasks: []Task{
				task("A", "channel", key("Z", "manifest1"), key("Z", "manifest2")),
				task("Z", "manifest2", key("Z", "manifest1")),
				task("Z", "manifest1"),
				task("M", "other"),
			},
			want: []string{"M/other", "Z/manifest1", "Z/manifest2", "A/channel"},
		},
		{
			name: "smallest ready key wins at every step",
			tasks: []Task{
				task("T", "d", key("T", "a")),
				task("T", "c"),
				task("T", "b", key("T", "c")),
				task("T", "a"),
			},
			// a and c are ready: a; then c < d; after c, b is ready and b < d.
			want: []string{"T/a", "T/c", "T/b", "T/d"},
		},
		{
			name: "repeated dependency is harmless",
			tasks: []Task{
				task("T", "b", key("T", "a"), key("T", "a")),
				task("T", "a"),
			},
			want: []string{"T/a", "T/b"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, err := BuildGraph(tt.tasks)
			require.NoError(t, err)
			assert.Equal(t, tt.want, keysOf(g.Tasks()))
			assert.Equal(t, len(tt.want), g.Len())
		})
	}
}

func TestBuildGraphOrderIgnoresInputOrder(t *testing.T) {
	var tasks []Task
	for i := range 200 {
		var deps []TaskKey
		if i > 0 {
			deps = append(deps, key("T", itoa3(i/3)))
		}
		if i > 10 {
			deps = append(deps, key("T", itoa3(i-7)))
		}
		tasks = append(tasks, task("T", itoa3(i), deps...))
	}
	g, err := BuildGraph(tasks)
	require.NoError(t, err)
	want := keysOf(g.Tasks())

	rng := rand.New(rand.NewPCG(1, 2))
	for range 100 {
		shuffled := append([]Task(nil), tasks...)
		rng.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
		g, err := BuildGraph(shuffled)
		require.NoError(t, err)
		require.Equal(t, want, keysOf(g.Tasks()))
	}
}

// itoa3 zero-pads so that key order equals numeric order.
func itoa3(i int) string {
	return string([]byte{byte('0' + i/100%10), byte('0' + i/10%10), byte('0' + i%10)})
}

func TestBuildGraphMissingDependencies(t *testing.T) {
	_, err := BuildGraph([]Task{
		task("T", "b", key("Gone", "x"), key("T", "a")),
		task("T", "a", key("Gone", "y")),
	})
	require.Error(t, err)
	assert.Equal(t,
		"task T/a depends on Gone/y, which does not exist (was its builder run, and is the key spelled the same?)\n"+
			"task T/b depends on Gone/x, which does not exist (was its builder run, and is the key spelled the same?)",
		err.Error())
	var missing *MissingDependencyError
	require.ErrorAs(t, err, &missing)
	assert.Equal(t, key("T", "a"), missing.Task)
	assert.Equal(t, key("Gone", "y"), missing.Missing)
}

func TestBuildGraphCycles(t *testing.T) {
	tests := []struct {
		name  string
		tasks []Task
		want  string
	}{
		{
			name:  "self dependency",
			tasks: []Task{task("A", "x", key("A", "x"))},
			want:  "dependency cycle: A/x -> A/x",
		},
		{
			name:  "two tasks",
			tasks: []Task{task("B", "y", key("A", "x")), task("A", "x", key("B", "y"))},
			want:  "dependency cycle: A/x -> B/y -> A/x",
		},
		{
			name: "three tasks listed in dependency order starting at the smallest key",
			tasks: []Task{
				task("C", "z", key("A", "x")),
				task("A", "x", key("B", "y")),
				task("B", "y", key("C", "z")),
			},
			want: "dependency cycle: A/x -> B/y -> C/z -> A/x",
		},
		{
			name: "three tasks the other way round",
			tasks: []Task{
				task("C", "z", key("B", "y")),
				task("A", "x", key("C", "z")),
				task("B", "y", key("A", "x")),
			},
			want: "dependency cycle: A/x -> C/z -> B/y -> A/x",
		},
		{
			name: "tasks outside the cycle are not listed",
			tasks: []Task{
				task("A", "entry", key("M", "1")), // depends on the cycle
				task("M", "1", key("M", "2")),
				task("M", "2", key("M", "3"), key("Z", "leaf")),
				task("M", "3", key("M", "1")),
				task("Z", "leaf"),
			},
			want: "dependency cycle: M/1 -> M/2 -> M/3 -> M/1",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := BuildGraph(tt.tasks)
			require.Error(t, err)
			assert.Equal(t, tt.want, err.Error())
			var cycle *CycleError
			assert.True(t, errors.As(err, &cycle))
		})
	}
}

func TestBuildGraphRejectsDuplicates(t *testing.T) {
	_, err := BuildGraph([]Task{
		&staticTask{K: key("F", "x"), Payload: "one"},
		&staticTask{K: key("F", "x"), Payload: "two"},
	})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "duplicate task F/x")
	assert.Contains(t, err.Error(), `"one"`)
	assert.Contains(t, err.Error(), `"two"`)
}
