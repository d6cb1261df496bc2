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

package client_test

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/yaml"

	"k8s.io/kops/pkg/apis/kops"
	"k8s.io/kops/pkg/client"
	"k8s.io/kops/pkg/kopscodecs"
	"k8s.io/kops/util/pkg/vfs"
)

// kopsStore is a state store as a kops 1.28 release leaves it for an AWS cluster.
const (
	kopsStore        = "testdata/kops-1.28-state"
	kopsStoreCluster = "prod.example.com"
)

// wantUnmodeled lists, per stored file, the paths this build does not model, in document order.
var wantUnmodeled = map[string][]string{
	"config": {
		"spec.api", "spec.dnsZone", "spec.etcdClusters", "spec.iam", "spec.kubeDNS.nodeLocalDNS",
		"spec.kubeProxy", "spec.kubelet", "spec.kubernetesApiAccess", "spec.networking.cilium.enableNodePort", "spec.sshAccess",
		"spec.topology",
	},
	"instancegroup/control-plane-us-east-2a": {"spec.nodeLabels"},
	"instancegroup/nodes-us-east-2a":         {"spec.cloudLabels", "spec.nodeLabels", "spec.rootVolumeSize", "spec.rootVolumeType"},
}

var unmodeledWarning = regexp.MustCompile(`field (\S+) is not modeled by this build`)

// copyKopsStore copies the fixture store into a fresh file:// store.
func copyKopsStore(t *testing.T) vfs.Path {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "state")
	require.NoError(t, os.CopyFS(dir, os.DirFS(kopsStore)))
	base, err := vfs.ParsePath("file://"+dir, nil)
	require.NoError(t, err)
	return base
}

// decoded reads a stored file as plain data, so that key order and formatting do not matter.
func decoded(t *testing.T, p vfs.Path) map[string]interface{} {
	t.Helper()
	data, err := p.ReadFile()
	require.NoError(t, err)
	var tree map[string]interface{}
	require.NoError(t, yaml.Unmarshal(data, &tree), "decoding %s", p)
	return tree
}

// warnedPaths groups the unmodeled paths named by warnings by the stored file they came from.
func warnedPaths(t *testing.T, base vfs.Path, warnings []kopscodecs.Warning) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	for _, w := range warnings {
		m := unmodeledWarning.FindStringSubmatch(w.Text)
		require.NotNil(t, m, "unexpected warning %s", w)
		rel := ""
		for file := range wantUnmodeled {
			if w.Source == base.Join(kopsStoreCluster, file).String() {
				rel = file
			}
		}
		require.NotEmpty(t, rel, "warning %s names no stored file", w)
		assert.Positive(t, w.Line, "warning %s has a line", w)
		out[rel] = append(out[rel], m[1])
	}
	return out
}

func TestKopsWrittenStoreRoundTrip(t *testing.T) {
	cases := []struct {
		name string
		// edit changes modeled fields of what was read; editTree makes the same change to the
		// decoded file content the result is compared with.
		edit     func(c *kops.Cluster, groups []*kops.InstanceGroup)
		editTree func(files map[string]map[string]interface{})
	}{
		{name: "read and written back unchanged"},
		{
			name: "modeled fields edited",
			edit: func(c *kops.Cluster, groups []*kops.InstanceGroup) {
				c.Spec.KubernetesVersion = "1.29.2"
				c.Spec.KubeDNS.ServerIP = "100.64.0.10"
				for _, g := range groups {
					if g.Name == "nodes-us-east-2a" {
						g.Spec.MaxSize = int32Ptr(6)
					}
				}
			},
			editTree: func(files map[string]map[string]interface{}) {
				spec := files["config"]["spec"].(map[string]interface{})
				spec["kubernetesVersion"] = "1.29.2"
				spec["kubeDNS"].(map[string]interface{})["serverIP"] = "100.64.0.10"
				files["instancegroup/nodes-us-east-2a"]["spec"].(map[string]interface{})["maxSize"] = float64(6)
			},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			base := copyKopsStore(t)
			cs := client.New(base)
			want := map[string]map[string]interface{}{}
			for file := range wantUnmodeled {
				want[file] = decoded(t, base.Join(kopsStoreCluster, file))
			}
			if tc.editTree != nil {
				tc.editTree(want)
			}

			names, err := cs.ListClusters()
			require.NoError(t, err)
			require.Equal(t, []string{kopsStoreCluster}, names)

			c, clusterWarnings, err := cs.GetCluster(kopsStoreCluster)
			require.NoError(t, err)
			groups, groupWarnings, err := cs.ListInstanceGroups(kopsStoreCluster)
			require.NoError(t, err)
			require.Len(t, groups, 2)
			assert.Equal(t, wantUnmodeled, warnedPaths(t, base, append(clusterWarnings, groupWarnings...)),
				"each unmodeled path warned about once")

			// The modeled part was read as written.
			assert.Equal(t, "1.28.7", c.Spec.KubernetesVersion)
			require.Len(t, c.Spec.Subnets, 2)
			assert.Equal(t, kops.SubnetTypePrivate, c.Spec.Subnets[0].Type)
			assert.Equal(t, "control-plane-us-east-2a", groups[0].Name)
			assert.True(t, groups[0].IsControlPlane())
			require.NotNil(t, groups[1].Spec.MaxSize)
			assert.EqualValues(t, 3, *groups[1].Spec.MaxSize)

			if tc.edit != nil {
				tc.edit(c, groups)
			}
			require.NoError(t, cs.UpdateCluster(c))
			for _, g := range groups {
				require.NoError(t, cs.UpdateInstanceGroup(kopsStoreCluster, g))
			}

			for file, tree := range want {
				assert.Equal(t, tree, decoded(t, base.Join(kopsStoreCluster, file)), "%s after writing back", file)
			}

			// Reading what was written back finds the same unmodeled fields, not twice as many.
			_, clusterWarnings, err = cs.GetCluster(kopsStoreCluster)
			require.NoError(t, err)
			for _, g := range groups {
				_, w, err := cs.GetInstanceGroup(kopsStoreCluster, g.Name)
				require.NoError(t, err)
				clusterWarnings = append(clusterWarnings, w...)
			}
			assert.Equal(t, wantUnmodeled, warnedPaths(t, base, clusterWarnings), "after writing back")
		})
	}
}
