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

package addons

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"k8s.io/kops/pkg/model"
)

func object(apiVersion, kind, name string) *unstructured.Unstructured {
	u := &unstructured.Unstructured{Object: map[string]interface{}{"apiVersion": apiVersion, "kind": kind}}
	if name != "" {
		u.SetName(name)
	}
	return u
}

// Component configuration kept with the cluster (kops create -f) is not shipped to the API server,
// which has no such kind.
func TestClusterAddonsLeaveOutComponentConfig(t *testing.T) {
	ctx := &model.KopsModelContext{FeatureFlags: operatorContext(t, nil, nil).FeatureFlags}
	scheduler := object("kubescheduler.config.k8s.io/v1", "KubeSchedulerConfiguration", "")

	ctx.ClusterAddons = []*unstructured.Unstructured{scheduler}
	addons, err := ClusterAddons{}.Addons(ctx)
	require.NoError(t, err)
	assert.Empty(t, addons, "nothing to ship")

	ctx.ClusterAddons = []*unstructured.Unstructured{scheduler, object("v1", "ConfigMap", "extra")}
	addons, err = ClusterAddons{}.Addons(ctx)
	require.NoError(t, err)
	require.Len(t, addons, 1)
	assert.Contains(t, string(addons[0].Manifest), "kind: ConfigMap")
	assert.NotContains(t, string(addons[0].Manifest), "KubeSchedulerConfiguration")
}
