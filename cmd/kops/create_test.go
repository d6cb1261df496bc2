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
		{"existing group", groupYAML("nodes-us-east-2a", "grow.k8s.local", "us-east-2a"), `standard input:4: document 1 (InstanceGroup "nodes-us-east-2a"): metadata.name: Invalid value: "nodes-us-east-2a": already exists in cluster "grow.k8s.local"`},
		{"unknown subnet", groupYAML("more", "grow.k8s.local", "us-west-1a"), `spec.subnets[0]: Not found: "us-west-1a"`},
		{"cluster label climbing out of the store", groupYAML("more", "../grow.k8s.local", "us-east-2a"),
			`standard input:6: document 1 (InstanceGroup "more"): metadata.labels[kops.k8s.io/cluster]: Invalid value: "../grow.k8s.local": a lowercase RFC 1123 subdomain`},
		{"unknown cluster", groupYAML("more", "other.k8s.local", "us-east-2a"), `standard input:6: document 1 (InstanceGroup "more"): metadata.labels[kops.k8s.io/cluster]: Invalid value: "other.k8s.local": names cluster "other.k8s.local", which is neither in the files nor in state store`},
		{"no cluster label", strings.Replace(groupYAML("more", "x", "a"), "    kops.k8s.io/cluster: x\n", "    team: a\n", 1), `standard input:5: document 1 (InstanceGroup "more"): metadata.labels[kops.k8s.io/cluster]: Required value`},
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
	assert.Contains(t, r.stderr, `testdata/cluster-with-unmodeled.yaml:4: document 1 (Cluster "unmodeled.example.com"): metadata.name: Invalid value: "unmodeled.example.com": already exists in state store`)
	after, err := os.ReadFile(config)
	require.NoError(t, err)
	assert.Equal(t, before, after)
}

// Other objects are stored with the cluster without any feature flag: ClusterAddons gates only
// --add of create cluster (and shipping them with update).
func TestCreateFileWithAddons(t *testing.T) {
	c := newCLI(t)
	input, err := os.ReadFile("testdata/cluster-with-unmodeled.yaml")
	require.NoError(t, err)
	withAddons := string(input) + `---
apiVersion: v1
kind: ConfigMap
metadata:
  name: extra
  namespace: kube-system
---
apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
clientConnection:
  qps: 500
`
	r := c.runStdin(withAddons, "create", "-f", "-")
	require.Equal(t, 0, r.code, r.stderr)
	assert.Contains(t, r.stdout, "Created 2 additional objects for cluster unmodeled.example.com")
	stored, err := os.ReadFile(c.storePath("unmodeled.example.com", "clusteraddons", "default"))
	require.NoError(t, err)
	assert.Contains(t, string(stored), "kind: ConfigMap")
	assert.Contains(t, string(stored), "kind: KubeSchedulerConfiguration")
}
