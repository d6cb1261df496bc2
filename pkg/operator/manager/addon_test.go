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

package manager

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"k8s.io/kops/pkg/operator"
)

// Objects are applied in two phases derived from their kinds: what a workload runs as, mounts and
// is reached by, together, then the workloads; whatever order the descriptor lists them in.
func TestManagedObjectsPhases(t *testing.T) {
	for _, tc := range []struct {
		name    string
		managed []operator.Managed
		order   []string
		phases  [][]int
	}{
		{"CoreDNS's", []operator.Managed{{Kind: "Deployment", Name: "coredns"}, {Kind: "Service", Name: "kube-dns"}, {Kind: "ConfigMap", Name: "coredns"}, {Kind: "ServiceAccount", Name: "coredns"}},
			[]string{"ServiceAccount", "ConfigMap", "Service", "Deployment"}, [][]int{{0, 1, 2}, {3}}},
		{"a DaemonSet", []operator.Managed{{Kind: "DaemonSet", Name: "node-local-dns"}, {Kind: "ConfigMap", Name: "node-local-dns"}},
			[]string{"ConfigMap", "DaemonSet"}, [][]int{{0}, {1}}},
		{"only a workload", []operator.Managed{{Kind: "Deployment", Name: "x"}}, []string{"Deployment"}, [][]int{{0}}},
		{"no workload", []operator.Managed{{Kind: "ConfigMap", Name: "x"}, {Kind: "ServiceAccount", Name: "x"}}, []string{"ServiceAccount", "ConfigMap"}, [][]int{{0, 1}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			objects, phases, err := managedObjects(&operator.Descriptor{Managed: tc.managed})
			require.NoError(t, err)
			var kinds []string
			for _, o := range objects {
				kinds = append(kinds, o.Kind)
			}
			assert.Equal(t, tc.order, kinds)
			assert.Equal(t, tc.phases, phases)
		})
	}
	_, _, err := managedObjects(&operator.Descriptor{Names: operator.Names{AddonName: "operator.x"}, Managed: []operator.Managed{{Kind: "Secret", Name: "x"}}})
	assert.ErrorContains(t, err, "operator operator.x: Secret is not a kind an operator may manage")
}
