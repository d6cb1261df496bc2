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

package confine

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"k8s.io/kops/pkg/operator"
)

// The scope policy's probe must be a request the policy sees: an object of a kind it matches,
// under a name it refuses. A ConfigMap probe of an operator that manages no ConfigMap (the
// metrics-server operator) was admitted, never matched, and channels waited for a denial that
// could not come.
func TestScopeProbeIsMatchedByTheScopePolicy(t *testing.T) {
	for name, tc := range map[string]struct {
		managed []operator.Managed
		kind    string
	}{
		"a ConfigMap among others":    {[]operator.Managed{{Kind: "Deployment", Name: "a"}, {Kind: "Service", Name: "a"}, {Kind: "ConfigMap", Name: "a"}, {Kind: "ServiceAccount", Name: "a"}}, "ConfigMap"},
		"no ConfigMap":                {[]operator.Managed{{Kind: "Deployment", Name: "a"}, {Kind: "Service", Name: "a"}, {Kind: "ServiceAccount", Name: "a"}}, "ServiceAccount"},
		"only kinds with a body":      {[]operator.Managed{{Kind: "DaemonSet", Name: "a"}, {Kind: "Service", Name: "a"}}, "DaemonSet"},
		"a Deployment and its config": {[]operator.Managed{{Kind: "Deployment", Name: "a"}, {Kind: "ConfigMap", Name: "b"}}, "ConfigMap"},
	} {
		t.Run(name, func(t *testing.T) {
			d := &Descriptor{Descriptor: operator.Descriptor{Managed: tc.managed, Names: operator.Names{ProbeName: "probe"}, WatchNamespace: "kube-system"}}
			probe := &unstructured.Unstructured{Object: d.ProbeObject()}
			assert.Equal(t, tc.kind, probe.GetKind())
			assert.Equal(t, "probe", probe.GetName())
			assert.Equal(t, "kube-system", probe.GetNamespace())
			gvr, ok := operator.ManagedResource(probe.GetKind())
			require.True(t, ok)
			assert.Equal(t, gvr.GroupVersion().String(), probe.GetAPIVersion())
			matched := false
			for _, r := range d.scopeRules() {
				for _, g := range r.APIGroups {
					for _, res := range r.Resources {
						matched = matched || (g == gvr.Group && res == gvr.Resource)
					}
				}
			}
			assert.True(t, matched, "the scope policy matches %s", gvr)
			for key, v := range kindOf(probe.GetKind()).ProbeBody {
				assert.Equal(t, v, probe.Object[key], "the kind's smallest valid body")
			}
		})
	}
}
