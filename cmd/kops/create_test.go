package main

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const extraGroup = `apiVersion: kops.k8s.io/v1alpha2
kind: InstanceGroup
metadata:
  name: %s
  labels:
    kops.k8s.io/cluster: %s
spec:
  role: Node
  machineType: m6i.large
  minSize: 1
  maxSize: 4
  subnets: [%s]
`

func groupYAML(name, cluster, subnet string) string {
	return fmt.Sprintf(extraGroup, name, cluster, subnet)
}

func (c *cli) runStdin(stdin string, args ...string) result {
	var out, errOut bytes.Buffer
	code := run(args, c.env, strings.NewReader(stdin), &out, &errOut, nil)
	return result{code, out.String(), errOut.String()}
}

func TestCreateFileAddsGroupToStoredCluster(t *testing.T) {
	c := newCLI(t)
	c.mustRun("create", "cluster", "grow.k8s.local", "--zones", "us-east-2a")

	r := c.runStdin(groupYAML("big-nodes", "grow.k8s.local", "us-east-2a"), "create", "-f", "-")
	require.Equal(t, 0, r.code, r.stderr)
	assert.Equal(t, "Created instancegroup/big-nodes\n", r.stdout)
	assert.FileExists(t, c.storePath("grow.k8s.local", "instancegroup", "big-nodes"))

	cases := []struct {
		name, input, want string
	}{
		{"existing group", groupYAML("nodes", "grow.k8s.local", "us-east-2a"), `instance group "nodes" already exists in cluster "grow.k8s.local"`},
		{"unknown subnet", groupYAML("more", "grow.k8s.local", "us-west-1a"), `spec.subnets[0]: Not found: "us-west-1a"`},
		{"unknown cluster", groupYAML("more", "other.k8s.local", "us-east-2a"), `instance groups name cluster "other.k8s.local", which is neither in the files nor in state store`},
		{"no cluster label", strings.Replace(groupYAML("more", "x", "a"), "    kops.k8s.io/cluster: x\n", "    team: a\n", 1), "metadata.labels[kops.k8s.io/cluster]: Required value"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := c.runStdin(tc.input, "create", "-f", "-")
			assert.Equal(t, 1, r.code)
			assert.Contains(t, r.stderr, tc.want)
			assert.NoFileExists(t, c.storePath("grow.k8s.local", "instancegroup", "more"))
		})
	}
}

func TestCreateFileRefusesExistingCluster(t *testing.T) {
	c := newCLI(t)
	c.mustRun("create", "-f", "testdata/cluster-with-unmodeled.yaml")
	config := c.storePath("unmodeled.example.com", "config")
	before, err := os.ReadFile(config)
	require.NoError(t, err)

	r := c.run("create", "-f", "testdata/cluster-with-unmodeled.yaml")
	assert.Equal(t, 1, r.code)
	assert.Contains(t, r.stderr, `cluster "unmodeled.example.com" already exists`)
	after, err := os.ReadFile(config)
	require.NoError(t, err)
	assert.Equal(t, before, after)
}

func TestCreateFileWithAddons(t *testing.T) {
	c := newCLI(t)
	input, err := os.ReadFile("testdata/cluster-with-unmodeled.yaml")
	require.NoError(t, err)
	withAddon := string(input) + "---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: extra\n  namespace: kube-system\n"

	r := c.runStdin(withAddon, "create", "-f", "-")
	assert.Equal(t, 1, r.code, "addon objects need ClusterAddons")
	assert.Contains(t, r.stderr, "accepted as cluster addons only with the ClusterAddons feature flag")
	assert.NoDirExists(t, c.storePath("unmodeled.example.com"))

	c.env["KOPS_FEATURE_FLAGS"] = "ClusterAddons"
	r = c.runStdin(withAddon, "create", "-f", "-")
	require.Equal(t, 0, r.code, r.stderr)
	assert.Contains(t, r.stdout, "Created 1 addon objects for cluster unmodeled.example.com")
	assert.FileExists(t, c.storePath("unmodeled.example.com", "clusteraddons", "default"))
}
