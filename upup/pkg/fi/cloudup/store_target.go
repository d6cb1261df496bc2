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

package cloudup

import (
	"context"
	"slices"
	"sync"

	"k8s.io/kops/upup/pkg/fi"
	"k8s.io/kops/upup/pkg/fi/cloudup/terraform"
)

// storeTarget sends state-store tasks to inner and sets cloud tasks aside (kops calls no cloud API),
// so the command can list them and point at --target terraform instead of pretending.
type storeTarget struct {
	inner reporter

	mu    sync.Mutex
	cloud []fi.TaskChange
}

var _ fi.Target = (*storeTarget)(nil)

func (t *storeTarget) Name() string { return t.inner.Name() }

func (t *storeTarget) Render(ctx context.Context, c *fi.Context, task fi.Task, change *fi.Change) error {
	if !isCloudTask(task) {
		return t.inner.Render(ctx, c, task, change)
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.cloud = append(t.cloud, fi.TaskChange{Key: task.Key(), Change: change})
	return nil
}

func (t *storeTarget) cloudChanges() []fi.TaskChange {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := slices.Clone(t.cloud)
	slices.SortFunc(out, func(a, b fi.TaskChange) int { return a.Key.Compare(b.Key) })
	return out
}

func isCloudTask(task fi.Task) bool {
	_, terraformRenders := task.(terraform.Renderer)
	_, directRenders := task.(fi.DirectRenderer)
	return terraformRenders && !directRenders
}
