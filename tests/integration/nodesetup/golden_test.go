// Package nodesetup holds the golden cases of the node setup: each directory has an input
// (in-v1alpha2.yaml: a cluster and its instance groups) and, under expected/, the node script, the
// systemd unit, kubelet's drop-in and the launch template user data of its "nodes" group. Run
// hack/update-expected.sh to rewrite expected/ after reading why it changed.
package nodesetup

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"k8s.io/kops/pkg/apis/kops"
	"k8s.io/kops/pkg/client"
	"k8s.io/kops/pkg/kopscodecs"
	"k8s.io/kops/pkg/model/nodesetup"
	"k8s.io/kops/upup/pkg/fi/cloudup"
)

var updateExpected = os.Getenv("UPDATE_EXPECTED") == "1"

func TestNodeSetupGolden(t *testing.T) {
	entries, err := os.ReadDir(".")
	require.NoError(t, err)
	ran := 0
	for _, e := range entries {
		if _, err := os.Stat(filepath.Join(e.Name(), "in-v1alpha2.yaml")); err != nil {
			continue
		}
		ran++
		t.Run(e.Name(), func(t *testing.T) { runCase(t, e.Name()) })
	}
	require.GreaterOrEqual(t, ran, 10, "golden cases found")
}

func runCase(t *testing.T, dir string) {
	input, err := os.ReadFile(filepath.Join(dir, "in-v1alpha2.yaml"))
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
	files, err := nodesetup.Files(checked.Cluster)
	require.NoError(t, err)
	userData, err := nodesetup.UserData(checked.Cluster, nodes)
	require.NoError(t, err)
	got := map[string][]byte{
		nodesetup.ScriptFile:        files.Script,
		nodesetup.UnitFile:          files.Unit,
		nodesetup.KubeletDropInFile: files.KubeletDropIn,
		"userdata":                  userData,
	}
	for name, data := range got {
		path := filepath.Join(dir, "expected", name)
		if updateExpected {
			require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
			require.NoError(t, os.WriteFile(path, data, 0o644))
			continue
		}
		want, err := os.ReadFile(path)
		require.NoError(t, err, "expected file missing: run hack/update-expected.sh")
		assert.Equal(t, string(want), string(data), "%s differs from expected; if the change is intended, run hack/update-expected.sh and read the diff", path)
	}
}
