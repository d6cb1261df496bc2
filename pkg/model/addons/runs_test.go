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
	"k8s.io/apimachinery/pkg/types"

	"k8s.io/kops/pkg/addons/metricsserver"
	"k8s.io/kops/pkg/kubemanifest"
)

// What a built-in addon runs comes from its registry entry's descriptor, and it is what the
// built-in addon renders: metrics-server's Deployment and APIService, read back from the manifest
// kops writes for a default cluster.
func TestRunsOfABuiltInAddonIsWhatItRenders(t *testing.T) {
	built := builtAddons(t, metricsServerModeContext(t, "", "", nil))
	require.Contains(t, built, metricsserver.AddonName)
	objects, err := kubemanifest.DecodeStrict(built[metricsserver.AddonName].Manifest, OperatorKinds())
	require.NoError(t, err)
	rendered := &Runs{}
	for _, o := range objects {
		rendered.add(o.Kind, o.Typed.GetNamespace(), o.Typed.GetName())
	}
	require.NotEmpty(t, rendered.Deployments)
	require.NotEmpty(t, rendered.APIServices)

	runs, err := RunsOf(metricsserver.AddonName)
	require.NoError(t, err)
	require.NotNil(t, runs)
	assert.ElementsMatch(t, rendered.Deployments, runs.Deployments)
	assert.ElementsMatch(t, rendered.APIServices, runs.APIServices)
	assert.Equal(t, []types.NamespacedName{{Namespace: "kube-system", Name: "metrics-server"}}, runs.Deployments)
}

// Every entry of the registry with a built-in addon has its runs derived, but the cluster's DNS,
// which validation checks as the DNS; an addon of no entry runs nothing validation checks.
func TestRunsOfEveryBuiltInAddon(t *testing.T) {
	for _, o := range Operators() {
		if o.BuiltIn == nil {
			continue
		}
		runs, err := RunsOf(o.BuiltIn.Name)
		require.NoError(t, err, o.BuiltIn.Name)
		if o.ClusterDNS {
			assert.Nil(t, runs, "%s: checked as the cluster's DNS", o.BuiltIn.Name)
			continue
		}
		want, err := operatorRuns(o.Descriptor)
		require.NoError(t, err)
		assert.Equal(t, want, runs, o.BuiltIn.Name)
	}
	runs, err := RunsOf("kube2iam.addons.k8s.io")
	require.NoError(t, err)
	assert.Nil(t, runs)
}
