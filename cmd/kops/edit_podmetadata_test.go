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
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestEditPodMetadataModes sets each mode with `kops edit`, in the order a user must: Allow needs
// the groups' explicit hop limit of 1 (written by create cluster) gone first.
func TestEditPodMetadataModes(t *testing.T) {
	c := newCLI(t)
	c.mustRun("create", "cluster", "pm.k8s.local", "--zones", "us-east-2a")
	c.bootstrap("pm.k8s.local")

	c.editor(`s/^  cloudProvider: aws/  cloudProvider: aws\n  podMetadataAccess:\n    mode: Block/`)
	c.mustRun("edit", "cluster", "pm.k8s.local")
	r := c.mustRun("get", "cluster", "pm.k8s.local", "-o", "yaml")
	assert.Contains(t, r.stdout, "  podMetadataAccess:\n    mode: Block\n")

	c.editor(`s/    mode: Block/    mode: Forward\n    forward:\n      baseRoleARN: arn:aws:iam::123456789012:role\/pods\/\n  networking:\n    calico: {}/`)
	c.mustRun("edit", "cluster", "pm.k8s.local")
	r = c.mustRun("update", "cluster", "pm.k8s.local")
	assert.Contains(t, r.stdout, "IAMRolePolicy/nodes.pm.k8s.local")
	assert.Contains(t, r.stdout, "Allow sts:AssumeRole on arn:aws:iam::123456789012:role/pods/*")

	for _, ig := range []string{"nodes-us-east-2a", "control-plane-us-east-2a"} {
		c.editor(`/instanceMetadata:/d;/httpPutResponseHopLimit:/d;/httpTokens:/d`)
		c.mustRun("edit", "ig", ig, "--name", "pm.k8s.local")
	}
	c.editor(`s/    mode: Forward/    mode: Allow/;/forward:/d;/baseRoleARN:/d`)
	c.mustRun("edit", "cluster", "pm.k8s.local")
	r = c.mustRun("update", "cluster", "pm.k8s.local")
	assert.Contains(t, r.stdout, "tokens required, hop limit 2")
	assert.NotContains(t, r.stdout, "sts:AssumeRole on", "kube2iam's right leaves with mode Forward")
}

// TestEditRefusesPodMetadataContradictions: every problem is shown with its path and the store
// keeps its bytes.
func TestEditRefusesPodMetadataContradictions(t *testing.T) {
	tests := []struct {
		name   string
		args   []string
		stored string
		script string
		want   []string
		// mode, when set, is written into the cluster first: only a mode the user wrote can be
		// contradicted (the default is not).
		mode string
	}{
		{"mode typo and forward without Forward", []string{"edit", "cluster", "pm.k8s.local"}, "config",
			`s/^  cloudProvider: aws/  cloudProvider: aws\n  podMetadataAccess:\n    mode: Blok\n    forward:\n      port: 8181/`,
			[]string{`spec.podMetadataAccess.mode: Invalid value: "Blok": unsupported value; did you mean "Block"?`,
				"spec.podMetadataAccess.forward: Forbidden: may only be set when spec.podMetadataAccess.mode is Forward"}, ""},
		{"Allow while groups keep hop limit 1", []string{"edit", "cluster", "pm.k8s.local"}, "config",
			`s/^  cloudProvider: aws/  cloudProvider: aws\n  podMetadataAccess:\n    mode: Allow/`,
			[]string{"spec.instanceMetadata.httpPutResponseHopLimit: Invalid value: 1: contradicts spec.podMetadataAccess.mode Allow"}, ""},
		{"a group lets pods get a token under Block", []string{"edit", "ig", "nodes-us-east-2a", "--name", "pm.k8s.local"}, "instancegroup/nodes-us-east-2a",
			`s/httpPutResponseHopLimit: 1/httpPutResponseHopLimit: 2/;s/httpTokens: required/httpTokens: optional/`,
			[]string{"spec.instanceMetadata.httpPutResponseHopLimit: Invalid value: 2: contradicts spec.podMetadataAccess.mode Block",
				`spec.instanceMetadata.httpTokens: Invalid value: "optional": contradicts spec.podMetadataAccess.mode Block`}, "Block"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := newCLI(t)
			c.mustRun("create", "cluster", "pm.k8s.local", "--zones", "us-east-2a")
			if tc.mode != "" {
				c.mustRun("edit", "cluster", "pm.k8s.local", "--set", "spec.podMetadataAccess.mode="+tc.mode)
			}
			stored := c.storePath("pm.k8s.local", tc.stored)
			before, err := os.ReadFile(stored)
			require.NoError(t, err)

			dir := t.TempDir()
			c.editor(tc.script, "w "+dir+"/shown")
			r := c.run(tc.args...)
			assert.Equal(t, 1, r.code)
			shown, err := os.ReadFile(filepath.Join(dir, "shown"))
			require.NoError(t, err)
			for _, w := range tc.want {
				assert.Contains(t, string(shown), w)
			}
			after, err := os.ReadFile(stored)
			require.NoError(t, err)
			assert.Equal(t, string(before), string(after), "the store is unchanged")
		})
	}
}

// TestGetFullShowsPodMetadataDefault: the stored spec has no podMetadataAccess; --full shows what
// update cluster acts on.
func TestGetFullShowsPodMetadataDefault(t *testing.T) {
	c := newCLI(t)
	c.mustRun("create", "cluster", "pm.k8s.local", "--zones", "us-east-2a")
	r := c.mustRun("get", "cluster", "pm.k8s.local", "-o", "yaml")
	assert.NotContains(t, r.stdout, "podMetadataAccess")
	r = c.mustRun("get", "cluster", "pm.k8s.local", "-o", "yaml", "--full")
	assert.Contains(t, r.stdout, "  podMetadataAccess:\n    mode: Block\n")
}

// TestGetFullShowsNamespaceRestrictions: in mode Forward, --full shows kube2iam's namespace
// restrictions on when the spec leaves them unset, and an explicit false is stored, shown and kept.
func TestGetFullShowsNamespaceRestrictions(t *testing.T) {
	c := newCLI(t)
	c.mustRun("create", "cluster", "pm.k8s.local", "--zones", "us-east-2a")
	c.editor(`s/^  cloudProvider: aws/  cloudProvider: aws\n  podMetadataAccess:\n    mode: Forward\n    forward:\n      baseRoleARN: arn:aws:iam::123456789012:role\/pods\/\n  networking:\n    calico: {}/`)
	c.mustRun("edit", "cluster", "pm.k8s.local")
	r := c.mustRun("get", "cluster", "pm.k8s.local", "-o", "yaml")
	assert.NotContains(t, r.stdout, "namespaceRestrictions")
	r = c.mustRun("get", "cluster", "pm.k8s.local", "-o", "yaml", "--full")
	assert.Contains(t, r.stdout, "      namespaceRestrictions: true\n")

	c.editor(`s/^      baseRoleARN: \(.*\)$/      baseRoleARN: \1\n      namespaceRestrictions: false/`)
	c.mustRun("edit", "cluster", "pm.k8s.local")
	for _, args := range [][]string{{"get", "cluster", "pm.k8s.local", "-o", "yaml"}, {"get", "cluster", "pm.k8s.local", "-o", "yaml", "--full"}} {
		r = c.mustRun(args...)
		assert.Contains(t, r.stdout, "      namespaceRestrictions: false\n", "%v", args)
	}
}

// TestModeChangeShowsLaunchTemplateDiff: after switching Block to Allow, the terraform preview shows
// the node template's hop limit going from 1 to 2, and nothing else about the templates.
func TestModeChangeShowsLaunchTemplateDiff(t *testing.T) {
	c := newCLI(t)
	c.mustRun("create", "cluster", "pm.k8s.local", "--zones", "us-east-2a")
	c.bootstrap("pm.k8s.local")
	out := t.TempDir()
	c.mustRun("update", "cluster", "pm.k8s.local", "--target", "terraform", "--out", out, "--yes")

	c.editor(`/instanceMetadata:/d;/httpPutResponseHopLimit:/d;/httpTokens:/d`)
	c.mustRun("edit", "ig", "nodes-us-east-2a", "--name", "pm.k8s.local")
	c.editor(`s/^  cloudProvider: aws/  cloudProvider: aws\n  podMetadataAccess:\n    mode: Allow/`)
	c.mustRun("edit", "cluster", "pm.k8s.local")

	r := c.mustRun("update", "cluster", "pm.k8s.local", "--target", "terraform", "--out", out)
	assert.Contains(t, r.stdout, "resource aws_launch_template.nodes-us-east-2a-pm-k8s-local (desired)")
	assert.Contains(t, r.stdout, "-    http_put_response_hop_limit = 1\n")
	assert.Contains(t, r.stdout, "+    http_put_response_hop_limit = 2\n")
	assert.NotContains(t, r.stdout, "aws_launch_template.control-plane-us-east-2a-masters-pm-k8s-local (desired)",
		"the control-plane group sets hop limit 1 itself, so its template is unchanged")
}

// TestCreateFileRefusesPodMetadataProblems: create -f reports every problem of the new cluster,
// with its path, and stores nothing.
func TestCreateFileRefusesPodMetadataProblems(t *testing.T) {
	c := newCLI(t)
	input := `apiVersion: kops.k8s.io/v1alpha2
kind: Cluster
metadata:
  name: bad.k8s.local
spec:
  cloudProvider: aws
  kubernetesVersion: 1.35.4
  networkCIDR: 172.20.0.0/16
  subnets:
  - {name: us-east-2a, zone: us-east-2a, cidr: 172.20.32.0/19, type: Public}
  podMetadataAccess:
    mode: Forward
    hostInterface: "eth0 -j ACCEPT"
    forward:
      proxy: kube2aim
`
	r := c.runStdin(input, "create", "-f", "-")
	assert.Equal(t, 1, r.code)
	for _, want := range []string{
		`spec.podMetadataAccess.forward.proxy: Invalid value: "kube2aim": unsupported value; did you mean "kube2iam"?`,
		"spec.podMetadataAccess.forward.baseRoleARN: Required value",
		`spec.podMetadataAccess.hostInterface: Invalid value: "eth0 -j ACCEPT"`,
	} {
		assert.Contains(t, r.stderr, want)
	}
	assert.NoDirExists(t, c.storePath("bad.k8s.local"), "nothing is stored")
}

// TestDefaultModeIsNeverAnError: a kops spec whose node group lets pods reach metadata (hop limit 3,
// as clusters kops built before this feature have) and that writes no mode loads; the group keeps
// its access in mode Allow, update says so naming the group and how to block, and get --full shows
// each group's mode and why. The same group under a mode the user wrote is still refused (above).
func TestDefaultModeIsNeverAnError(t *testing.T) {
	c := newCLI(t)
	c.mustRun("create", "cluster", "pm.k8s.local", "--zones", "us-east-2a")
	c.editor(`s/httpPutResponseHopLimit: 1/httpPutResponseHopLimit: 3/`)
	c.mustRun("edit", "ig", "nodes-us-east-2a", "--name", "pm.k8s.local")

	r := c.mustRun("update", "cluster", "pm.k8s.local", "--yes")
	assert.Contains(t, r.stderr, `instance group "nodes-us-east-2a": pods on its machines keep access to instance metadata (mode Allow): `+
		`the group writes spec.instanceMetadata.httpPutResponseHopLimit: 3, which lets pods reach instance metadata, and spec.podMetadataAccess.mode is not set; `+
		`to block them, set spec.podMetadataAccess.mode: Block and the group's httpPutResponseHopLimit to 1`)
	script, err := os.ReadFile(c.storePath("pm.k8s.local", "igconfig", "node", "nodes-us-east-2a", "kops-pod-metadata-access.sh"))
	require.NoError(t, err)
	assert.Contains(t, string(script), "# Mode Allow:")
	script, err = os.ReadFile(c.storePath("pm.k8s.local", "igconfig", "controlplane", "control-plane-us-east-2a", "kops-pod-metadata-access.sh"))
	require.NoError(t, err)
	assert.Contains(t, string(script), "# Mode Block:", "other groups keep the default")

	r = c.mustRun("get", "cluster", "pm.k8s.local", "-o", "yaml", "--full")
	assert.Contains(t, r.stdout, "# Pod metadata access by instance group:\n")
	assert.Contains(t, r.stdout, "#   control-plane-us-east-2a: Block, the default (spec.podMetadataAccess.mode is not set)\n")
	assert.Contains(t, r.stdout, "#   nodes-us-east-2a: Allow, the group writes spec.instanceMetadata.httpPutResponseHopLimit: 3")
}
