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
)

func key(kind, name string) TaskKey { return TaskKey{Kind: kind, Name: name} }

// staticTask is comparable with reflect.DeepEqual, for duplicate handling.
type staticTask struct {
	K       TaskKey
	D       []TaskKey
	Payload string
}

func (t *staticTask) Key() TaskKey            { return t.K }
func (t *staticTask) Dependencies() []TaskKey { return t.D }
func (t *staticTask) Plan(context.Context, *Context) (*Change, error) {
	return &Change{Action: ActionNone}, nil
}
func (t *staticTask) String() string {
	return fmt.Sprintf("staticTask(%s, payload %q)", t.K, t.Payload)
}

// funcTask plans with a test-supplied function; nil plan means "no change".
type funcTask struct {
	key  TaskKey
	deps []TaskKey
	plan func(ctx context.Context) (*Change, error)
}

func (t *funcTask) Key() TaskKey            { return t.key }
func (t *funcTask) Dependencies() []TaskKey { return t.deps }
func (t *funcTask) Plan(ctx context.Context, _ *Context) (*Change, error) {
	if t.plan == nil {
		return &Change{Action: ActionNone}, nil
	}
	return t.plan(ctx)
}

func task(kind, name string, deps ...TaskKey) *staticTask {
	return &staticTask{K: key(kind, name), D: deps}
}

func keysOf(tasks []Task) []string {
	out := make([]string, len(tasks))
	for i, t := range tasks {
		out[i] = t.Key().String()
	}
	return out
}

func resultKeys(results []Result) []string {
	out := make([]string, len(results))
	for i, r := range results {
		out[i] = r.Key.String()
	}
	return out
}
