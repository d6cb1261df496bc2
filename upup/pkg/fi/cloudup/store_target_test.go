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
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"k8s.io/kops/upup/pkg/fi"
	"k8s.io/kops/upup/pkg/fi/cloudup/terraform"
	"k8s.io/kops/util/pkg/vfs"
)

// cloudTask lives in the cloud: terraform renders it, the direct target cannot.
type cloudTask struct{ name string }

func (c *cloudTask) Key() fi.TaskKey            { return fi.TaskKey{Kind: "LaunchTemplate", Name: c.name} }
func (c *cloudTask) Dependencies() []fi.TaskKey { return nil }
func (c *cloudTask) Plan(context.Context, *fi.Context) (*fi.Change, error) {
	return &fi.Change{Action: fi.ActionCreate, Fields: []fi.FieldChange{{Name: "HTTPTokens", New: "required"}}}, nil
}
func (c *cloudTask) RenderTerraform(*terraform.Target) error { return nil }

// bothTask can be rendered either way, so the direct target applies it.
type bothTask struct {
	cloudTask
	applied *bool
}

func (b *bothTask) RenderDirect(context.Context, *fi.Context, *fi.Change) error {
	*b.applied = true
	return nil
}

func TestStoreTargetSetsCloudTasksAside(t *testing.T) {
	base, err := vfs.ParsePath("memfs://s/c", &vfs.MemFS{})
	require.NoError(t, err)
	applied := false
	tasks := []fi.Task{&cloudTask{name: "b"}, &cloudTask{name: "a"}, &bothTask{cloudTask: cloudTask{name: "both"}, applied: &applied}}
	graph, err := fi.BuildGraph(tasks)
	require.NoError(t, err)

	for _, inner := range []reporter{&fi.DryRunTarget{}, &fi.DirectTarget{}} {
		t.Run(inner.Name(), func(t *testing.T) {
			target := &storeTarget{inner: inner}
			_, err := fi.Run(context.Background(), graph, &fi.Context{ConfigBase: base}, target, fi.RunOptions{})
			require.NoError(t, err, "a cloud task is no error for the direct target")
			var keys []string
			for _, tc := range target.cloudChanges() {
				keys = append(keys, tc.Key.String())
			}
			assert.Equal(t, []string{"LaunchTemplate/a", "LaunchTemplate/b"}, keys, "sorted, and a task with RenderDirect is not a cloud task")
			require.Len(t, inner.Changes(), 1)
			assert.Equal(t, "LaunchTemplate/both", inner.Changes()[0].Key.String())
		})
	}
	assert.True(t, applied, "the direct target applied the task it can render")
}
