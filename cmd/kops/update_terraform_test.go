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
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestUpdateClusterTerraform(t *testing.T) {
	c := newCLI(t)
	c.mustRun("create", "cluster", "tf.example.com", "--zones", "us-east-2a")
	c.bootstrap("tf.example.com")
	out := filepath.Join(t.TempDir(), "out")
	mainFile := filepath.Join(out, "kubernetes.tf")

	r := c.mustRun("update", "cluster", "tf.example.com", "--target", "terraform", "--out", out)
	assert.Contains(t, r.stdout, "Will create resources:\n")
	assert.Contains(t, r.stdout, "  ManagedFile/addons/bootstrap-channel.yaml\n")
	assert.Contains(t, r.stdout, "  TerraformFile/kubernetes.tf\n")
	assert.Contains(t, r.stdout, "With --yes, kubernetes.tf and data/ are written to file://"+out)
	assert.NoDirExists(t, out, "a preview writes no terraform")
	assert.NoDirExists(t, c.storePath("tf.example.com", "addons"), "nor addon files")

	r = c.mustRun("update", "cluster", "tf.example.com", "--target", "terraform", "--out", out, "--yes")
	assert.Contains(t, r.stdout, "Created resources:\n")
	assert.Contains(t, r.stdout, "Terraform files are in file://"+out)
	assert.Contains(t, r.stdout, "Addon files are in the state store (file://"+c.storePath("tf.example.com")+"/addons), not in "+out)
	tf, err := os.ReadFile(mainFile)
	require.NoError(t, err)
	assert.Contains(t, string(tf), "provider \"aws\" {\n  region = \"us-east-2\"\n}\n")
	assert.Contains(t, string(tf), "resource \"aws_launch_template\" \"nodes-us-east-2a-tf-example-com\" {\n")
	assert.Contains(t, string(tf), "    name = aws_iam_instance_profile.nodes-tf-example-com.id\n")
	assert.FileExists(t, filepath.Join(out, "data", "aws_launch_template_nodes-us-east-2a.tf.example.com_user_data"))
	assert.NotContains(t, r.stdout, "NOT APPLIED", "terraform carries the cloud resources")
	assert.FileExists(t, c.storePath("tf.example.com", "addons", "bootstrap-channel.yaml"), "addon files still go to the store")
	assert.NoDirExists(t, filepath.Join(out, "addons"), "and not to --out")

	t.Run("a re-run reports no change and rewrites nothing", func(t *testing.T) {
		old := time.Now().Add(-time.Hour)
		require.NoError(t, os.Chtimes(mainFile, old, old))
		for _, args := range [][]string{{}, {"--yes"}} {
			r := c.mustRun(append([]string{"update", "cluster", "tf.example.com", "--target", "terraform", "--out", out}, args...)...)
			assert.Contains(t, r.stdout, "No changes need to be applied\n")
		}
		st, err := os.Stat(mainFile)
		require.NoError(t, err)
		assert.True(t, st.ModTime().Equal(old), "kubernetes.tf was not rewritten")
	})

	t.Run("a hand edit of kubernetes.tf is refused and kept; moved away, it is written again", func(t *testing.T) {
		edited := string(tf) + "\nresource \"aws_instance\" \"extra\" {\n}\n"
		require.NoError(t, os.WriteFile(mainFile, []byte(edited), 0o644))
		for _, args := range [][]string{{}, {"--yes"}} {
			r := c.run(append([]string{"update", "cluster", "tf.example.com", "--target", "terraform", "--out", out}, args...)...)
			assert.Equal(t, 1, r.code)
			assert.Contains(t, r.stderr, "kops would overwrite files it did not write (or that changed since it wrote them): kubernetes.tf;")
			again, err := os.ReadFile(mainFile)
			require.NoError(t, err)
			assert.Equal(t, edited, string(again), "the edit is kept")
		}
		require.NoError(t, os.Rename(mainFile, mainFile+".mine"))
		c.mustRun("update", "cluster", "tf.example.com", "--target", "terraform", "--out", out, "--yes")
		again, err := os.ReadFile(mainFile)
		require.NoError(t, err)
		assert.Equal(t, string(tf), string(again))
	})
}

// TestUpdateClusterTerraformLeavesOthersFilesAlone: --out is a folder kops shares with its user.
// Files kops did not write there survive every run and are named; a data file kops wrote and no
// longer renders is deleted, unless someone changed it since.
func TestUpdateClusterTerraformLeavesOthersFilesAlone(t *testing.T) {
	c := newCLI(t)
	c.mustRun("create", "cluster", "tf.example.com", "--zones", "us-east-2a")
	c.bootstrap("tf.example.com")
	out := filepath.Join(t.TempDir(), "out")
	theirs := map[string]string{
		"README.txt":        "notes",
		"terraform.tfstate": "{}",
		"data/README.txt":   "what data/ is",
		"data/key.pem":      "-----BEGIN PRIVATE KEY-----",
	}
	for name, content := range theirs {
		require.NoError(t, os.MkdirAll(filepath.Dir(filepath.Join(out, name)), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(out, name), []byte(content), 0o600))
	}
	update := func(args ...string) result {
		return c.mustRun(append([]string{"update", "cluster", "tf.example.com", "--target", "terraform", "--out", out}, args...)...)
	}
	for _, args := range [][]string{{}, {"--yes"}, {"--yes"}} {
		r := update(args...)
		assert.Contains(t, r.stdout, "Left alone (not written by kops, or changed since kops wrote them):\n  data/README.txt\n  data/key.pem\n")
	}

	// Two more groups, then their files leave the store by hand: their data files are stale.
	group := c.mustRun("get", "ig", "nodes-us-east-2a", "--name", "tf.example.com", "-o", "yaml").stdout
	for _, name := range []string{"extra", "edited"} {
		doc := strings.Replace(group, "name: nodes-us-east-2a\n", "name: "+name+"\n", 1)
		path := filepath.Join(t.TempDir(), name+".yaml")
		require.NoError(t, os.WriteFile(path, []byte(doc), 0o644))
		c.mustRun("create", "-f", path)
	}
	update("--yes")
	extra := filepath.Join(out, "data", "aws_launch_template_extra.tf.example.com_user_data")
	edited := filepath.Join(out, "data", "aws_launch_template_edited.tf.example.com_user_data")
	require.FileExists(t, extra)
	require.NoError(t, os.WriteFile(edited, []byte("changed by hand"), 0o644))
	for _, name := range []string{"extra", "edited"} {
		require.NoError(t, os.Remove(c.storePath("tf.example.com", "instancegroup", name)))
	}

	r := update()
	assert.Contains(t, r.stdout, "  data/aws_launch_template_edited.tf.example.com_user_data\n", "named as left alone")
	assert.Contains(t, r.stdout, "Old: data/aws_launch_template_extra.tf.example.com_user_data"[len("Old: "):])
	r = update("--yes")
	assert.Contains(t, r.stdout, "Deleted resources:\n")
	assert.NoFileExists(t, extra, "a stale file kops wrote is deleted")
	data, err := os.ReadFile(edited)
	require.NoError(t, err)
	assert.Equal(t, "changed by hand", string(data), "a stale file changed since is left alone")
	for name, content := range theirs {
		data, err := os.ReadFile(filepath.Join(out, name))
		require.NoError(t, err, name)
		assert.Equal(t, content, string(data), name)
	}
}

func TestUpdateClusterTerraformErrorsWriteNothing(t *testing.T) {
	c := newCLI(t)
	c.mustRun("create", "cluster", "tf.example.com", "--zones", "us-east-2a")
	c.mustRun("create", "cluster", "gce.example.com", "--cloud", "gce", "--zones", "us-central1-a")
	notADir := filepath.Join(t.TempDir(), "file")
	require.NoError(t, os.WriteFile(notADir, []byte("x"), 0o644))
	fresh := filepath.Join(t.TempDir(), "fresh")
	// A data/ that is a symlink: kops must neither write nor delete where it points.
	elsewhere := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(elsewhere, "precious"), []byte("keep"), 0o644))
	linked := filepath.Join(t.TempDir(), "linked")
	require.NoError(t, os.MkdirAll(linked, 0o755))
	require.NoError(t, os.Symlink(elsewhere, filepath.Join(linked, "data")))
	// --out reaching the state store through links.
	links := t.TempDir()
	linkToStore := filepath.Join(links, "store")
	require.NoError(t, os.Symlink(c.storePath(), linkToStore))
	linkToCluster := filepath.Join(links, "cluster")
	require.NoError(t, os.Symlink(c.storePath("tf.example.com"), linkToCluster))
	before := storeSnapshot(t, c)

	cases := []struct {
		name string
		args []string
		want string
	}{
		{"no --out", []string{"tf.example.com", "--target", "terraform", "--yes"}, "--target terraform needs --out DIR"},
		{"--out names a file", []string{"tf.example.com", "--target", "terraform", "--out", notADir, "--yes"}, notADir},
		{"--out/data is a symlink", []string{"tf.example.com", "--target", "terraform", "--out", linked, "--yes"}, "/data: a symlink: kops does not write or delete through links"},
		{"not AWS", []string{"gce.example.com", "--target", "terraform", "--out", fresh, "--yes"}, `renders AWS resources only; spec.cloudProvider is "gce"`},
		{"--out inside the state store", []string{"tf.example.com", "--target", "terraform", "--out", c.storePath("tf.example.com", "tf"), "--yes"}, "is inside the state store"},
		{"--out is the state store", []string{"tf.example.com", "--target", "terraform", "--out", c.storePath(), "--yes"}, "is inside the state store"},
		{"--out is a link into the state store", []string{"tf.example.com", "--target", "terraform", "--out", linkToStore, "--yes"}, "is inside the state store"},
		{"--out is below a link into the state store", []string{"tf.example.com", "--target", "terraform", "--out", filepath.Join(linkToCluster, "tf"), "--yes"}, "is inside the state store"},
		{"--out is the store's real path, the store named through a link", []string{"tf.example.com", "--target", "terraform", "--state", linkToStore, "--out", c.storePath("tf.example.com", "tf"), "--yes"}, "is inside the state store"},
		{"unknown cluster", []string{"none.example.com", "--target", "terraform", "--out", fresh, "--yes"}, "none.example.com"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := c.run(append([]string{"update", "cluster"}, tc.args...)...)
			assert.Equal(t, 1, r.code, r.stdout)
			assert.Contains(t, r.stderr, tc.want)
			assert.Equal(t, before, storeSnapshot(t, c), "the store is untouched")
			assert.NoDirExists(t, fresh)
			data, err := os.ReadFile(notADir)
			require.NoError(t, err)
			assert.Equal(t, "x", string(data))
			left, err := os.ReadDir(elsewhere)
			require.NoError(t, err)
			require.Len(t, left, 1, "nothing written or deleted through the symlink")
			assert.Equal(t, "precious", left[0].Name())
			assert.NoFileExists(t, filepath.Join(linked, "kubernetes.tf"))
		})
	}
}

// The direct target applies the state store part, exits 0, and names every cloud resource it left
// alone where it cannot be missed: last on stdout, and on stderr.
func TestUpdateClusterDirectNamesCloudResources(t *testing.T) {
	c := newCLI(t)
	c.mustRun("create", "cluster", "d.example.com", "--zones", "us-east-2a")
	c.bootstrap("d.example.com")

	r := c.mustRun("update", "cluster", "d.example.com")
	assert.Contains(t, r.stdout, "\nCloud resources (not applied by --yes; write them with --target terraform --out DIR, then run terraform):\n")
	assert.True(t, strings.HasSuffix(r.stdout, "\n\nMust specify --yes to apply changes\n"), "the reminder is the dry run's last line, after the cloud resources:\n%s", r.stdout)
	assert.Contains(t, r.stdout, "  LaunchTemplate/nodes-us-east-2a.d.example.com\n  \tName                \tnodes-us-east-2a.d.example.com\n")

	r = c.mustRun("update", "cluster", "d.example.com", "--yes")
	assert.Equal(t, 0, r.code)
	tail := r.stdout[strings.Index(r.stdout, "*** NOT APPLIED"):]
	assert.Contains(t, tail, "  LaunchTemplate/nodes-us-east-2a.d.example.com\n")
	assert.Contains(t, tail, "  IAMRole/nodes.d.example.com\n")
	assert.True(t, strings.HasSuffix(tail, "Write them with:  kops update cluster d.example.com --target terraform --out DIR --yes\n"+
		"then apply them:  cd DIR && terraform init && terraform apply\n"), tail)
	assert.Contains(t, r.stderr, "cloud resources were not applied (kops update cluster d.example.com --target terraform --out DIR --yes writes them)")
	assert.FileExists(t, c.storePath("d.example.com", "addons", "bootstrap-channel.yaml"), "the state store part was applied")
}

// TestUpdateClusterTerraformFollowsNoLinkInOut: a file kops writes in --out that is a symlink to a
// file elsewhere (kubernetes.tf, a data file, the ledger) is refused, and what it points to is
// unchanged: kops neither writes through it nor takes its bytes as its own.
func TestUpdateClusterTerraformFollowsNoLinkInOut(t *testing.T) {
	c := newCLI(t)
	c.mustRun("create", "cluster", "tf.example.com", "--zones", "us-east-2a")
	c.bootstrap("tf.example.com")
	for _, name := range []string{"kubernetes.tf", "data/aws_launch_template_nodes-us-east-2a.tf.example.com_user_data", ".kops-ledger.sha256"} {
		t.Run(name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out")
			c.mustRun("update", "cluster", "tf.example.com", "--target", "terraform", "--out", out, "--yes")
			victim := filepath.Join(t.TempDir(), "victim")
			require.NoError(t, os.WriteFile(victim, []byte("theirs"), 0o600))
			require.NoError(t, os.Remove(filepath.Join(out, name)))
			require.NoError(t, os.Symlink(victim, filepath.Join(out, name)))
			c.editor(`s/kubernetesVersion: .*/kubernetesVersion: 1.34.0/`)
			c.run("edit", "cluster", "tf.example.com")

			r := c.run("update", "cluster", "tf.example.com", "--target", "terraform", "--out", out, "--yes")
			assert.Equal(t, 1, r.code, r.stdout)
			assert.Contains(t, r.stderr, "it would leave its root folder")
			data, err := os.ReadFile(victim)
			require.NoError(t, err)
			assert.Equal(t, "theirs", string(data))
		})
	}
}
