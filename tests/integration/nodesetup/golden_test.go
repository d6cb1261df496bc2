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

package nodesetup

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"k8s.io/kops/pkg/apis/kops"
	"k8s.io/kops/pkg/client"
	"k8s.io/kops/pkg/kopscodecs"
	"k8s.io/kops/pkg/model/nodesetup"
	"k8s.io/kops/tests/integration/golden"
	"k8s.io/kops/upup/pkg/fi/cloudup"
)

func TestNodeSetupGolden(t *testing.T) {
	for _, c := range golden.Cases(t, 10) {
		t.Run(c, func(t *testing.T) { runCase(t, c) })
	}
}

func runCase(t *testing.T, dir string) {
	input, err := os.ReadFile(filepath.Join(dir, golden.Input))
	require.NoError(t, err)
	objs, warnings, err := kopscodecs.Decode("in-v1alpha2.yaml", input, false)
	require.NoError(t, err)
	require.Empty(t, warnings, "golden inputs use modeled fields only")
	n, err := client.NewClusterFromObjects(objs)
	require.NoError(t, err)
	// Through the same completion and validation as kops update cluster: a case is a valid cluster.
	checked := cloudup.Check(n.Cluster, n.InstanceGroups, "memfs://golden", true)
	require.NoError(t, checked.Err(n.Cluster.Name, nil, nil))

	var nodes *kops.InstanceGroup
	for _, ig := range n.InstanceGroups {
		if ig.Name == "nodes" {
			nodes = ig
		}
	}
	require.NotNil(t, nodes, "the case has a group named nodes")
	files, err := nodesetup.Files(checked.Cluster, nodes)
	require.NoError(t, err)
	userData, err := nodesetup.UserData(checked.Cluster, nodes, nil)
	require.NoError(t, err)
	golden.Check(t, dir, map[string]string{
		nodesetup.ScriptFile:        string(files.Script),
		nodesetup.UnitFile:          string(files.Unit),
		nodesetup.KubeletDropInFile: string(files.KubeletDropIn),
		"userdata":                  string(userData),
	})
}
