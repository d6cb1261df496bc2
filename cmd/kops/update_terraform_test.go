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
	assert.Contains(t, string(tf), "resource \"aws_launch_template\" \"nodes-tf-example-com\" {\n")
	assert.Contains(t, string(tf), "    name = aws_iam_instance_profile.nodes-tf-example-com.id\n")
	assert.FileExists(t, filepath.Join(out, "data", "aws_launch_template_nodes.tf.example.com_user_data"))
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

	t.Run("a hand edit of kubernetes.tf is shown and put back", func(t *testing.T) {
		require.NoError(t, os.WriteFile(mainFile, []byte(string(tf)+"\nresource \"aws_instance\" \"extra\" {\n}\n"), 0o644))
		r := c.mustRun("update", "cluster", "tf.example.com", "--target", "terraform", "--out", out)
		assert.Contains(t, r.stdout, "Will modify resources:\n  TerraformFile/kubernetes.tf\n")
		assert.Contains(t, r.stdout, "--- resource aws_instance.extra (current)\n")
		c.mustRun("update", "cluster", "tf.example.com", "--target", "terraform", "--out", out, "--yes")
		again, err := os.ReadFile(mainFile)
		require.NoError(t, err)
		assert.Equal(t, string(tf), string(again))
	})
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
	before := storeSnapshot(t, c)

	cases := []struct {
		name string
		args []string
		want string
	}{
		{"no --out", []string{"tf.example.com", "--target", "terraform", "--yes"}, "--target terraform needs --out DIR"},
		{"--out names a file", []string{"tf.example.com", "--target", "terraform", "--out", notADir, "--yes"}, notADir},
		{"--out/data is a symlink", []string{"tf.example.com", "--target", "terraform", "--out", linked, "--yes"}, "data is not a directory (a file or a symlink)"},
		{"not AWS", []string{"gce.example.com", "--target", "terraform", "--out", fresh, "--yes"}, `renders AWS resources only; spec.cloudProvider is "gce"`},
		{"--out inside the state store", []string{"tf.example.com", "--target", "terraform", "--out", c.storePath("tf.example.com", "tf"), "--yes"}, "is inside the state store"},
		{"--out is the state store", []string{"tf.example.com", "--target", "terraform", "--out", c.storePath(), "--yes"}, "is inside the state store"},
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

	r := c.mustRun("update", "cluster", "d.example.com")
	assert.Contains(t, r.stdout, "Must specify --yes to apply changes\n\nCloud resources (not applied by --yes; write them with --target terraform --out DIR, then run terraform):\n")
	assert.Contains(t, r.stdout, "  LaunchTemplate/nodes.d.example.com\n  \tName                \tnodes.d.example.com\n")

	r = c.mustRun("update", "cluster", "d.example.com", "--yes")
	assert.Equal(t, 0, r.code)
	tail := r.stdout[strings.Index(r.stdout, "*** NOT APPLIED"):]
	assert.Contains(t, tail, "  LaunchTemplate/nodes.d.example.com\n")
	assert.Contains(t, tail, "  IAMRole/nodes.d.example.com\n")
	assert.True(t, strings.HasSuffix(tail, "Write them with:  kops update cluster d.example.com --target terraform --out DIR --yes\n"+
		"then apply them:  cd DIR && terraform init && terraform apply\n"), tail)
	assert.Contains(t, r.stderr, "cloud resources were not applied (kops update cluster d.example.com --target terraform --out DIR --yes writes them)")
	assert.FileExists(t, c.storePath("d.example.com", "addons", "bootstrap-channel.yaml"), "the state store part was applied")
}
