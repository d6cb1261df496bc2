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
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	channelsapi "k8s.io/kops/channels/pkg/api"
)

func TestUpdateCluster(t *testing.T) {
	c := newCLI(t)
	r := c.mustRun("create", "cluster", "addons.k8s.local", "--zones", "us-east-2a", "--yes")
	c.bootstrap("addons.k8s.local")
	assert.Contains(t, r.stdout, "Created resources:\n  Ledger/igconfig/.kops-ledger.sha256\n")
	assert.Contains(t, r.stdout, "\n  ManagedFile/addons/bootstrap-channel.yaml\n")
	channelPath := c.storePath("addons.k8s.local", "addons", "bootstrap-channel.yaml")
	manifestPath := c.storePath("addons.k8s.local", "addons", "coredns.addons.k8s.io", "k8s-1.12.yaml")
	require.FileExists(t, channelPath)
	require.FileExists(t, manifestPath)

	r = c.mustRun("update", "cluster", "addons.k8s.local", "--yes")
	assert.True(t, strings.HasPrefix(r.stdout, "No changes need to be applied\n"), r.stdout)
	assert.Contains(t, r.stdout, "NOT APPLIED: 7 cloud resources", "an aws cluster's IAM and launch templates are named, not applied")

	c.editor(`s/provider: CoreDNS/provider: CoreDNS\n    upstreamNameservers: [1.1.1.1]/`)
	c.mustRun("edit", "cluster", "addons.k8s.local")
	before, err := os.ReadFile(manifestPath)
	require.NoError(t, err)

	r = c.mustRun("update", "cluster", "addons.k8s.local")
	assert.Contains(t, r.stdout, "Will modify resources:")
	assert.Contains(t, r.stdout, "-        forward . /etc/resolv.conf {\n")
	assert.Contains(t, r.stdout, "+        forward . 1.1.1.1 {\n")
	assert.Contains(t, r.stdout, "Must specify --yes to apply changes")
	unchanged, err := os.ReadFile(manifestPath)
	require.NoError(t, err)
	assert.Equal(t, before, unchanged, "a dry run writes nothing")

	r = c.mustRun("update", "cluster", "addons.k8s.local", "--yes")
	assert.Contains(t, r.stdout, "Modified resources:")
	after, err := os.ReadFile(manifestPath)
	require.NoError(t, err)
	channelData, err := os.ReadFile(channelPath)
	require.NoError(t, err)
	channel, err := channelsapi.ParseAddons(channelData)
	require.NoError(t, err)
	require.Len(t, channel.Spec.Addons, 2, "the default ServiceAccounts and CoreDNS")
	assert.Equal(t, "coredns.addons.k8s.io", channel.Spec.Addons[1].Name)
	assert.Equal(t, channelsapi.ManifestHash(after), channel.Spec.Addons[1].ManifestHash, "the channel names the new manifest")
}

func TestUpdateClusterRefusesInvalidSpec(t *testing.T) {
	c := newCLI(t)
	c.mustRun("create", "cluster", "bad.k8s.local", "--zones", "us-east-2a")
	// Break the stored spec behind kops's back, as a hand edit of the store would.
	config := c.storePath("bad.k8s.local", "config")
	data, err := os.ReadFile(config)
	require.NoError(t, err)
	broken := []byte(string(data) + "  serviceClusterIPRange: 10.0.0.0/33\n")
	require.NoError(t, os.WriteFile(config, broken, 0o644))

	r := c.run("update", "cluster", "bad.k8s.local", "--yes")
	assert.Equal(t, 1, r.code)
	assert.Contains(t, r.stderr, "spec.serviceClusterIPRange")
	assert.NoDirExists(t, filepath.Join(filepath.Dir(config), "addons"), "nothing written")
}

func TestUpdateClusterTargets(t *testing.T) {
	c := newCLI(t)
	c.mustRun("create", "cluster", "t.k8s.local", "--zones", "us-east-2a")
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"--target", "terraform"}, "--target terraform needs --out DIR"},
		{[]string{"--target", "tf", "--out", "x"}, `unsupported target "tf": use dryrun, direct or terraform`},
		{[]string{"--out", "x"}, "--out is only used with --target terraform"},
		{[]string{"--out", "x", "--yes"}, "--out is only used with --target terraform"},
		{[]string{"--target", "direct"}, "--target direct writes to the state store: add --yes"},
	}
	for _, tc := range cases {
		r := c.run(append([]string{"update", "cluster", "t.k8s.local"}, tc.args...)...)
		assert.Equal(t, 1, r.code)
		assert.Contains(t, r.stderr, tc.want)
	}
	r := c.mustRun("update", "cluster", "t.k8s.local", "--target", "dryrun", "--yes")
	assert.Contains(t, r.stdout, "Will create resources:", "--target dryrun with --yes still only shows")
	assert.NoDirExists(t, c.storePath("t.k8s.local", "addons"))
}

func TestUpdateClusterWithOperators(t *testing.T) {
	c := newCLI(t)
	c.mustRun("create", "cluster", "ops.k8s.local", "--zones", "us-east-2a")
	addonsDir := c.storePath("ops.k8s.local", "addons")

	c.env["KOPS_FEATURE_FLAGS"] = "UseOperators"
	r := c.mustRun("update", "cluster", "ops.k8s.local", "--yes")
	assert.Contains(t, r.stderr, "UseAddonOperators needs ClusterAddons too")
	assert.FileExists(t, filepath.Join(addonsDir, "coredns.addons.k8s.io", "k8s-1.12.yaml"), "the flag alone keeps the built-in addon")

	c.env["KOPS_FEATURE_FLAGS"] = "ClusterAddons,UseOperators"
	r = c.mustRun("update", "cluster", "ops.k8s.local", "--yes")
	assert.NotContains(t, r.stdout, "Deleted resources:", "the built-in addon's manifest stays, for the takeover")
	assert.Contains(t, r.stdout, "+  takeOver:\n")
	for _, f := range []string{
		"coredns-rbac.addons.k8s.io/k8s-1.12.yaml",
		"operator.coredns.addons.x-k8s.io/0.2.0.yaml",
		"coredns.addons.x-k8s.io/1.14.2.yaml",
	} {
		assert.FileExists(t, filepath.Join(addonsDir, f))
	}
	assert.FileExists(t, filepath.Join(addonsDir, "coredns.addons.k8s.io", "k8s-1.12.yaml"),
		"the built-in addon stays as the channel's takeOver, for clusters kops's channels managed")
	resource, err := os.ReadFile(filepath.Join(addonsDir, "coredns.addons.x-k8s.io", "1.14.2.yaml"))
	require.NoError(t, err)
	assert.Contains(t, string(resource), "dnsIP: 100.64.0.10\n")
	assert.Contains(t, string(resource), "dnsDomain: cluster.local\n")

	delete(c.env, "KOPS_FEATURE_FLAGS")
	c.mustRun("update", "cluster", "ops.k8s.local", "--yes")
	assert.FileExists(t, filepath.Join(addonsDir, "coredns.addons.k8s.io", "k8s-1.12.yaml"), "without the flag the built-in addon is back")
	assert.NoFileExists(t, filepath.Join(addonsDir, "operator.coredns.addons.x-k8s.io", "0.2.0.yaml"))
}

// A channel that went bad after create (a file removed, a store edited by hand) fails update cleanly.
func TestUpdateClusterWithOperatorsBadChannel(t *testing.T) {
	c := newCLI(t)
	c.env["KOPS_FEATURE_FLAGS"] = "ClusterAddons,UseAddonOperators"
	cases := []struct {
		channel, want string
	}{
		{"https://example.com/channels/stable", `spec.channel:`},
		{"file:///nonexistent/channel.yaml", "nonexistent"},
	}
	for i, tc := range cases {
		name := fmt.Sprintf("ch%d.k8s.local", i)
		c.mustRun("create", "cluster", name, "--zones", "us-east-2a")
		config := c.storePath(name, "config")
		data, err := os.ReadFile(config)
		require.NoError(t, err)
		require.Contains(t, string(data), "channel: stable\n")
		require.NoError(t, os.WriteFile(config, []byte(strings.Replace(string(data), "channel: stable\n", "channel: "+tc.channel+"\n", 1)), 0o644))
		r := c.run("update", "cluster", name, "--yes")
		assert.Equal(t, 1, r.code)
		assert.Contains(t, r.stderr, tc.want)
		assert.NoDirExists(t, c.storePath(name, "addons"), "nothing written")
	}
}
