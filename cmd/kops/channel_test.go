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

// repoRoot is the checkout's root, two levels above this package.
func repoRoot(t *testing.T) string {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	require.NoError(t, err)
	require.FileExists(t, filepath.Join(root, "channels", "stable"))
	return root
}

// The community's try-it flow: a relative file:// channel from the repository root is stored as an
// absolute URL (and the user told so), so that update from anywhere else finds it.
func TestCreateClusterRelativeChannel(t *testing.T) {
	root := repoRoot(t)
	c := newCLI(t)
	c.env["KOPS_FEATURE_FLAGS"] = "ClusterAddons,UseOperators"
	t.Chdir(root)
	r := c.mustRun("create", "cluster", "addons.k8s.local", "--zones", "us-east-2a", "--channel", "file://channels/stable")
	abs := "file://" + filepath.ToSlash(filepath.Join(root, "channels", "stable"))
	assert.Contains(t, r.stderr, "Channel file://channels/stable stored as "+abs+"\n")
	config, err := os.ReadFile(c.storePath("addons.k8s.local", "config"))
	require.NoError(t, err)
	assert.Contains(t, string(config), "channel: "+abs+"\n")

	t.Chdir(t.TempDir())
	r = c.mustRun("update", "cluster", "addons.k8s.local", "--yes")
	assert.FileExists(t, c.storePath("addons.k8s.local", "addons", "operator.coredns.addons.x-k8s.io", "0.2.0.yaml"))
}

// A bad channel is refused at create, with the field and the reason, and nothing is stored.
func TestCreateClusterRefusesBadChannel(t *testing.T) {
	dir := t.TempDir()
	write := func(rel, content string) {
		p := filepath.Join(dir, rel)
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
	}
	const channel = "apiVersion: kops.k8s.io/v1alpha2\nkind: Channel\nmetadata:\n  name: c\nspec:\n  packages:\n  - name: op\n    version: 1.0.0\n"
	write("malformed/channel", "kind: Channel\nspec:\n  packages:\n  - name: a\n")
	write("badpkg/channel", channel)
	write("badpkg/packages/op/1.0.0/manifest.yaml", "just: a map\n")
	write("unparsable/channel", channel)
	write("unparsable/packages/op/1.0.0/manifest.yaml", "kind: [\n")
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "unreadable", "packages", "op", "1.0.0", "manifest.yaml"), 0o755))
	write("unreadable/channel", channel)

	cases := map[string][]string{ // --channel → substrings of the error
		"https://example.com/channels/stable": {`scheme "https" is not supported`},
		"beta":                                {`channel "beta" is not a known channel`},
		"file:///nonexistent/channel":         {"reading channel file:///nonexistent/channel", "no such file"},
		"file://channels/nonexistent":         {"reading channel file://" + filepath.ToSlash(dir) + "/channels/nonexistent"},
		"file://malformed/channel":            {"spec.packages[0].version: Required value"},
		"file://badpkg/channel":               {"spec.packages[0] (op 1.0.0): packages/op/1.0.0/manifest.yaml: document 1: apiVersion and kind are required"},
		"file://unparsable/channel":           {"packages/op/1.0.0/manifest.yaml"},
		"file://unreadable/channel":           {"packages/op/1.0.0/manifest.yaml", "directory"},
		"memfs://store/channel":               {"memfs:// is only available to tests"},
	}
	c := newCLI(t)
	t.Chdir(dir)
	for channel, want := range cases {
		t.Run(channel, func(t *testing.T) {
			r := c.run("create", "cluster", "bad.k8s.local", "--zones", "us-east-2a", "--channel", channel)
			assert.Equal(t, 1, r.code)
			assert.Contains(t, r.stderr, `spec.channel: Invalid value: "`+channel+`"`)
			for _, w := range want {
				assert.Contains(t, r.stderr, w)
			}
			assert.NotContains(t, r.stderr, "state store", "a channel is not a state store")
			assert.NoDirExists(t, c.storePath("bad.k8s.local"))
		})
	}
}

// kops create -f checks the channel too, and reports it against the document's line.
func TestCreateFileRefusesBadChannel(t *testing.T) {
	c := newCLI(t)
	r := c.mustRun("create", "cluster", "f.k8s.local", "--zones", "us-east-2a", "--dry-run", "-o", "yaml")
	input := strings.Replace(r.stdout, "channel: stable\n", "channel: file:///nonexistent/channel\n", 1)
	file := filepath.Join(t.TempDir(), "cluster.yaml")
	require.NoError(t, os.WriteFile(file, []byte(input), 0o644))
	r = c.run("create", "-f", file)
	assert.Equal(t, 1, r.code)
	assert.Contains(t, r.stderr, file+":8: document 1 (Cluster \"f.k8s.local\"): spec.channel: Invalid value")
	assert.NoDirExists(t, c.storePath("f.k8s.local"))
}

// kops edit cluster checks a changed channel before storing it, and stores a relative one resolved.
func TestEditClusterChannel(t *testing.T) {
	root := repoRoot(t)
	c := newCLI(t)
	c.mustRun("create", "cluster", "e.k8s.local", "--zones", "us-east-2a")
	config := c.storePath("e.k8s.local", "config")
	before, err := os.ReadFile(config)
	require.NoError(t, err)

	// A missing channel: the editor is reopened with the error, the user gives up.
	t.Chdir(root)
	dir := t.TempDir()
	c.editor(`s|channel: stable|channel: file://channels/beta|`, "w "+dir+"/shown")
	r := c.run("edit", "cluster", "e.k8s.local")
	assert.Equal(t, 1, r.code)
	shown, err := os.ReadFile(filepath.Join(dir, "shown"))
	require.NoError(t, err)
	assert.Contains(t, string(shown), `spec.channel: Invalid value: "file://channels/beta": reading channel file://`+filepath.ToSlash(root)+"/channels/beta")
	after, err := os.ReadFile(config)
	require.NoError(t, err)
	assert.Equal(t, string(before), string(after), "nothing stored")

	c.editor(`s|channel: stable|channel: file://channels/alpha|`)
	r = c.mustRun("edit", "cluster", "e.k8s.local")
	abs := "file://" + filepath.ToSlash(filepath.Join(root, "channels", "alpha"))
	assert.Contains(t, r.stderr, "Channel file://channels/alpha stored as "+abs+"\n")
	after, err = os.ReadFile(config)
	require.NoError(t, err)
	assert.Contains(t, string(after), "channel: "+abs+"\n")
}
