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
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"k8s.io/kops/pkg/client"
	"k8s.io/kops/util/pkg/vfs"
)

// TestDeleteClusterKnowsIGConfig: the node files `kops update cluster` writes under
// igconfig/<role>/<group>/ are kops's and go with the cluster; anything else there is unknown.
func TestDeleteClusterKnowsIGConfig(t *testing.T) {
	const name = "doomed.example.com"
	known := []string{
		"igconfig/node/nodes-a/kops-pod-metadata-access.sh",
		"igconfig/node/nodes-a/kops-pod-metadata-access.service",
		"igconfig/controlplane/control-plane-us-east-2a/nodeupconfig.yaml",
	}
	unknown := map[string]string{
		"igconfig/other/nodes-a/x":     "/igconfig/other",
		"igconfig/node/Not_A_Group/x":  "/igconfig/node/Not_A_Group",
		"igconfig/node/nodes-a/deep/x": "/igconfig/node/nodes-a/deep",
		"igconfig/stray":               "/igconfig/stray",
	}
	forEachStore(t, func(t *testing.T, base vfs.Path, mem *vfs.MemFS) {
		cs := client.New(base)
		require.NoError(t, cs.CreateCluster(testNewCluster(name, false)))
		for _, f := range known {
			require.NoError(t, base.Join(name, f).WriteFile([]byte("x")))
		}
		files, err := cs.ListClusterFiles(name)
		require.NoError(t, err)
		assert.Empty(t, files.Unknown)
		require.NoError(t, cs.DeleteCluster(name, client.DeleteOptions{}))
		exists, err := base.Join(name).Exists()
		require.NoError(t, err)
		assert.False(t, exists, "the node files went with the cluster")

		require.NoError(t, cs.CreateCluster(testNewCluster(name, false)))
		for f := range unknown {
			require.NoError(t, base.Join(name, f).WriteFile([]byte("x")))
		}
		err = cs.DeleteCluster(name, client.DeleteOptions{})
		require.ErrorIs(t, err, client.ErrUnknownFiles)
		for _, want := range unknown {
			assert.ErrorContains(t, err, want)
		}
	})
}
