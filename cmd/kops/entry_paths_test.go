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
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// entryCluster is a valid cluster, written as kops stores it, so that one change applies alike to
// the input of create -f, to the text the editor is given and to the stored config.
const entryCluster = `apiVersion: kops.k8s.io/v1alpha2
kind: Cluster
metadata:
  name: entry.k8s.local
spec:
  cloudProvider: aws
  kubeDNS:
    domain: cluster.local
    serverIP: 100.64.0.10
  kubernetesVersion: 1.35.4
  networkCIDR: 172.20.0.0/16
  subnets:
  - cidr: 172.20.32.0/19
    name: us-east-2a
    type: Public
    zone: us-east-2a
  - cidr: 172.20.64.0/19
    name: us-east-2b
    type: Public
    zone: us-east-2b
`

const entryGroups = `---
apiVersion: kops.k8s.io/v1alpha2
kind: InstanceGroup
metadata:
  name: control-plane-us-east-2a
  labels:
    kops.k8s.io/cluster: entry.k8s.local
spec:
  role: ControlPlane
  machineType: t3.medium
  minSize: 1
  maxSize: 1
  subnets: [us-east-2a]
---
apiVersion: kops.k8s.io/v1alpha2
kind: InstanceGroup
metadata:
  name: nodes
  labels:
    kops.k8s.io/cluster: entry.k8s.local
spec:
  role: Node
  machineType: t3.medium
  minSize: 1
  maxSize: 1
  subnets: [us-east-2a, us-east-2b]
`

// sedEscape makes s match itself in a sed regular expression and replacement.
func sedEscape(s string) string {
	return strings.NewReplacer(`\`, `\\`, `/`, `\/`, `.`, `\.`, `*`, `\*`, `[`, `\[`, `]`, `\]`, `^`, `\^`, `$`, `\$`, `&`, `\&`).Replace(s)
}

// TestOneValidationForEveryEntry: the same bad cluster is refused with the same field path by create
// -f, create cluster (where flags can say it), edit cluster and update cluster of a store holding
// it, and none of them changes the store.
func TestOneValidationForEveryEntry(t *testing.T) {
	long := strings.Repeat("a", 64)
	cases := []struct {
		name     string
		old, new string   // one line of entryCluster, and what it becomes
		flags    []string // create cluster's way of saying it; nil when flags cannot
		want     []string
	}{
		{"subnets in two regions", "zone: us-east-2b", "zone: us-west-2b", []string{"--zones", "us-east-2a,us-west-2b"},
			[]string{`spec.subnets[1].zone: Invalid value: "us-west-2b": region us-west-2 differs from region us-east-2 of spec.subnets[0].zone "us-east-2a"`}},
		{"a zone of no cloud", "zone: us-east-2b", "zone: mars-1a", []string{"--zones", "us-east-2a,mars-1a"},
			[]string{`spec.subnets[1].zone: Invalid value: "mars-1a": is not an AWS availability zone`}},
		{"an unsupported Kubernetes version", "kubernetesVersion: 1.35.4", "kubernetesVersion: 1.20.0", []string{"--kubernetes-version", "1.20.0"},
			[]string{`spec.kubernetesVersion: Invalid value: "1.20.0": is not supported: this build supports Kubernetes 1.30 to 1.36`}},
		{"the whole IPv6 space as an IPv4 cluster's network", "networkCIDR: 172.20.0.0/16", "networkCIDR: ::/0", []string{"--network-cidr", "::/0"},
			[]string{
				`spec.networkCIDR: Invalid value: "::/0": is the whole IPv6 address space`,
				`spec.networkCIDR: Invalid value: "::/0": must be an IPv4 CIDR: the cluster is IPv4`,
			}},
		{"serverIP the service range's network address", "serverIP: 100.64.0.10", "serverIP: 100.64.0.0", nil,
			[]string{`spec.kubeDNS.serverIP: Invalid value: "100.64.0.0": is the network address of spec.serviceClusterIPRange "100.64.0.0/13"`}},
		{"serverIP the service range's broadcast address", "serverIP: 100.64.0.10", "serverIP: 100.71.255.255", nil,
			[]string{`spec.kubeDNS.serverIP: Invalid value: "100.71.255.255": is the broadcast address of spec.serviceClusterIPRange "100.64.0.0/13"`}},
		{"a 64-character label in the DNS domain", "domain: cluster.local", "domain: " + long + ".local", nil,
			[]string{`spec.kubeDNS.domain: Invalid value: "` + long + `.local": label 1 ("aaaaaaaaaaaaaaaa...") has 64 characters: a DNS label has at most 63`}},
	}
	for _, tc := range cases {
		bad := strings.Replace(entryCluster, tc.old, tc.new, 1)
		require.NotEqual(t, entryCluster, bad, "the change applies")
		assertWants := func(t *testing.T, text string) {
			t.Helper()
			for _, w := range tc.want {
				assert.Contains(t, text, w)
			}
		}

		t.Run(tc.name+"/create -f", func(t *testing.T) {
			c := newCLI(t)
			r := c.runStdin(bad+entryGroups, "create", "-f", "-")
			assert.Equal(t, 1, r.code)
			assertWants(t, r.stderr)
			assert.Empty(t, c.storeFiles(), "nothing stored")
		})

		if tc.flags != nil {
			t.Run(tc.name+"/create cluster", func(t *testing.T) {
				c := newCLI(t)
				args := append([]string{"create", "cluster", "entry.k8s.local"}, tc.flags...)
				if tc.flags[0] != "--zones" {
					args = append(args, "--zones", "us-east-2a")
				}
				r := c.run(args...)
				assert.Equal(t, 1, r.code)
				assertWants(t, r.stderr)
				assert.Contains(t, r.stderr, "(from "+tc.flags[0]+")", "the flag is named")
				assert.Empty(t, c.storeFiles(), "nothing stored")
			})
		}

		t.Run(tc.name+"/edit cluster", func(t *testing.T) {
			c := newCLI(t)
			r := c.runStdin(entryCluster+entryGroups, "create", "-f", "-")
			require.Equal(t, 0, r.code, r.stderr)
			before := c.storeFiles()
			// The user makes the change, is shown the errors, and saves the same text again.
			shown := filepath.Join(t.TempDir(), "shown")
			c.editor("s/"+sedEscape(tc.old)+"/"+sedEscape(tc.new)+"/", "w "+shown)
			r = c.run("edit", "cluster", "entry.k8s.local")
			assert.Equal(t, 1, r.code)
			text, err := os.ReadFile(shown)
			require.NoError(t, err)
			assert.Contains(t, string(text), tc.new, "the editor was given the changed text")
			assertWants(t, string(text))
			assert.Equal(t, before, c.storeFiles(), "the store is unchanged")
		})

		t.Run(tc.name+"/update cluster", func(t *testing.T) {
			c := newCLI(t)
			r := c.runStdin(entryCluster+entryGroups, "create", "-f", "-")
			require.Equal(t, 0, r.code, r.stderr)
			// The bad spec reaches the store behind kops's back, as a hand edit or an older build would.
			config := c.storePath("entry.k8s.local", "config")
			stored, err := os.ReadFile(config)
			require.NoError(t, err)
			require.Contains(t, string(stored), tc.old)
			require.NoError(t, os.WriteFile(config, []byte(strings.Replace(string(stored), tc.old, tc.new, 1)), 0o644))
			before := c.storeFiles()

			r = c.run("update", "cluster", "entry.k8s.local", "--yes")
			assert.Equal(t, 1, r.code)
			assertWants(t, r.stderr)
			assert.Equal(t, before, c.storeFiles(), "the store is unchanged")
		})
	}
}

// A cluster name with a 64-character label cannot enter the store (create cluster, create -f), and
// one already stored under such a name (kops's own rule allows it) is refused by update and edit with
// its field path, yet can still be deleted.
func TestLongDNSLabelInClusterName(t *testing.T) {
	name := strings.Repeat("a", 64) + ".k8s.local"
	want := `metadata.name: Invalid value: "` + name + `": label 1 ("aaaaaaaaaaaaaaaa...") has 64 characters: a DNS label has at most 63`
	c := newCLI(t)

	r := c.run("create", "cluster", name, "--zones", "us-east-2a")
	assert.Equal(t, 1, r.code)
	assert.Contains(t, r.stderr, want)
	r = c.runStdin(strings.ReplaceAll(entryCluster, "entry.k8s.local", name), "create", "-f", "-")
	assert.Equal(t, 1, r.code)
	assert.Contains(t, r.stderr, `standard input:4: document 1 (Cluster "`+name+`"): `+want)
	r = c.runStdin(strings.ReplaceAll(entryCluster+entryGroups, "entry.k8s.local", name), "create", "-f", "-")
	assert.Equal(t, 1, r.code)
	assert.Contains(t, r.stderr, `document 2 (InstanceGroup "control-plane-us-east-2a"): metadata.labels[kops.k8s.io/cluster]: Invalid value: "`+name+`": label 1`,
		"a group naming such a cluster is refused too")
	assert.Empty(t, c.storeFiles(), "nothing stored")

	// A store that holds one, as kops may have written it.
	r = c.runStdin(entryCluster+entryGroups, "create", "-f", "-")
	require.Equal(t, 0, r.code, r.stderr)
	for _, f := range []string{"config", "instancegroup/control-plane-us-east-2a", "instancegroup/nodes"} {
		data, err := os.ReadFile(c.storePath("entry.k8s.local", f))
		require.NoError(t, err)
		require.NoError(t, os.MkdirAll(filepath.Dir(c.storePath(name, f)), 0o755))
		require.NoError(t, os.WriteFile(c.storePath(name, f), []byte(strings.ReplaceAll(string(data), "entry.k8s.local", name)), 0o644))
	}
	before := c.storeFiles()

	r = c.run("update", "cluster", name, "--yes")
	assert.Equal(t, 1, r.code)
	assert.Contains(t, r.stderr, want)
	shown := filepath.Join(t.TempDir(), "shown")
	c.editor("s/kubernetesVersion: 1.35.4/kubernetesVersion: 1.35.5/", "w "+shown)
	r = c.run("edit", "cluster", name)
	assert.Equal(t, 1, r.code)
	text, err := os.ReadFile(shown)
	require.NoError(t, err)
	assert.Contains(t, string(text), want)
	assert.Equal(t, before, c.storeFiles(), "the store is unchanged")

	c.mustRun("delete", "cluster", name, "--yes")
	assert.NoDirExists(t, c.storePath(name))
}
