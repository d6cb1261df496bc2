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
	"crypto/ed25519"
	"crypto/rand"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/crypto/ssh"

	"k8s.io/kops/pkg/sshcredentials"
)

// storeFiles maps every file under the state store to its contents, to show that a refused
// command left the store exactly as it was.
func (c *cli) storeFiles() map[string]string {
	c.t.Helper()
	files := map[string]string{}
	root := c.storePath()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		rel, _ := filepath.Rel(root, path)
		files[rel] = string(data)
		return err
	})
	if !os.IsNotExist(err) {
		require.NoError(c.t, err)
	}
	return files
}

func newSSHKey(t *testing.T) (authorized, id string) {
	t.Helper()
	pub, _, err := ed25519.GenerateKey(rand.Reader)
	require.NoError(t, err)
	key, err := ssh.NewPublicKey(pub)
	require.NoError(t, err)
	return strings.TrimSpace(string(ssh.MarshalAuthorizedKey(key))) + " admin@example.com", sshcredentials.ID(key)
}

func sshCredentialYAML(cluster, publicKey string) string {
	return `apiVersion: kops.k8s.io/v1alpha2
kind: SSHCredential
metadata:
  name: admin
  labels:
    kops.k8s.io/cluster: ` + cluster + `
spec:
  publicKey: "` + publicKey + `"
`
}

// An SSHCredential stores its key where kops keeps it, for a cluster of the same files or one
// already in the store.
func TestCreateFileSSHCredential(t *testing.T) {
	c := newCLI(t)
	input, err := os.ReadFile("testdata/cluster-with-unmodeled.yaml")
	require.NoError(t, err)
	key, id := newSSHKey(t)

	r := c.runStdin(string(input)+"---\n"+sshCredentialYAML("unmodeled.example.com", key), "create", "-f", "-")
	require.Equal(t, 0, r.code, r.stderr)
	assert.Contains(t, r.stdout, "Added 1 SSH public keys to cluster unmodeled.example.com")
	stored, err := os.ReadFile(c.storePath("unmodeled.example.com", "pki", "ssh", "public", "admin", id))
	require.NoError(t, err)
	assert.Equal(t, key, string(stored))

	second, secondID := newSSHKey(t)
	r = c.runStdin(sshCredentialYAML("unmodeled.example.com", second), "create", "-f", "-")
	require.Equal(t, 0, r.code, r.stderr)
	assert.Equal(t, "Added an SSH public key to cluster unmodeled.example.com\n", r.stdout)
	assert.FileExists(t, c.storePath("unmodeled.example.com", "pki", "ssh", "public", "admin", secondID))
}

func TestCreateFileSSHCredentialRefused(t *testing.T) {
	c := newCLI(t)
	c.mustRun("create", "cluster", "keys.k8s.local", "--zones", "us-east-2a")
	before := c.storeFiles()
	key, _ := newSSHKey(t)

	cases := []struct {
		name, input string
		want        []string
	}{
		{"not a key", sshCredentialYAML("keys.k8s.local", "ssh-ed25519 bm90IGEga2V5"),
			[]string{`standard input:8: document 1 (SSHCredential "admin"): spec.publicKey: Invalid value: "<key not shown>": is not an SSH public key`}},
		{"a private key", sshCredentialYAML("keys.k8s.local", `-----BEGIN OPENSSH PRIVATE KEY-----\nsecret\n-----END OPENSSH PRIVATE KEY-----`),
			[]string{"spec.publicKey", "is a private key"}},
		{"no key", strings.Replace(sshCredentialYAML("keys.k8s.local", ""), `  publicKey: ""`+"\n", "  {}\n", 1),
			[]string{"spec.publicKey: Required value"}},
		{"no cluster label", strings.Replace(sshCredentialYAML("x", key), "    kops.k8s.io/cluster: x\n", "    team: a\n", 1),
			[]string{`standard input:5: document 1 (SSHCredential "admin"): metadata.labels[kops.k8s.io/cluster]: Required value`}},
		{"cluster label climbing out of the store", sshCredentialYAML("../victim", key),
			[]string{`standard input:6: document 1 (SSHCredential "admin"): metadata.labels[kops.k8s.io/cluster]: Invalid value: "../victim": a lowercase RFC 1123 subdomain`}},
		{"unknown cluster", sshCredentialYAML("nowhere.k8s.local", key),
			[]string{`standard input:6: document 1 (SSHCredential "admin"): metadata.labels[kops.k8s.io/cluster]: Invalid value: "nowhere.k8s.local": names cluster "nowhere.k8s.local", which is neither in the files nor in state store`}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := c.runStdin(tc.input, "create", "-f", "-")
			assert.Equal(t, 1, r.code)
			for _, w := range tc.want {
				assert.Contains(t, r.stderr, w)
			}
			assert.NotContains(t, r.stderr, "secret", "a private key is never echoed")
			assert.Equal(t, before, c.storeFiles())
		})
	}
}

// Input without any document is an error, not a silent success.
func TestCreateFileEmptyInput(t *testing.T) {
	c := newCLI(t)
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty.yaml")
	separators := filepath.Join(dir, "separators.yaml")
	require.NoError(t, os.WriteFile(empty, nil, 0o600))
	require.NoError(t, os.WriteFile(separators, []byte("---\n# nothing here\n---\n"), 0o600))

	for _, tc := range []struct {
		name, stdin string
		args        []string
		want        string
	}{
		{"empty file", "", []string{"-f", empty}, "no objects found in " + empty},
		{"only separators", "", []string{"-f", separators}, "no objects found in " + separators},
		{"empty standard input", "", []string{"-f", "-"}, "no objects found in standard input"},
		{"whitespace on standard input", "\n  \n---\n", []string{"-f", "-"}, "no objects found in standard input"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := c.runStdin(tc.stdin, append([]string{"create"}, tc.args...)...)
			assert.Equal(t, 1, r.code)
			assert.Contains(t, r.stderr, tc.want)
			assert.Empty(t, r.stdout)
			assert.Empty(t, c.storeFiles())
		})
	}
}

// Problems that concern the set of documents name the file, line and document too.
func TestCreateFileLocatesSetProblems(t *testing.T) {
	c := newCLI(t)
	input, err := os.ReadFile("testdata/cluster-with-unmodeled.yaml")
	require.NoError(t, err)
	cluster := strings.SplitN(string(input), "\n---\n", 2)[0] + "\n"
	dir := t.TempDir()
	first, second := filepath.Join(dir, "first.yaml"), filepath.Join(dir, "second.yaml")
	require.NoError(t, os.WriteFile(first, []byte(cluster), 0o600))
	require.NoError(t, os.WriteFile(second, []byte("# again\n"+cluster), 0o600))

	r := c.run("create", "-f", first, "-f", second)
	assert.Equal(t, 1, r.code)
	assert.Contains(t, r.stderr, second+`:5: document 1 (Cluster "unmodeled.example.com"): metadata.name: Invalid value: "unmodeled.example.com": a second Cluster of this name; the first is `+first+`:1 (document 1`)

	configMap := "---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: extra\n"
	other := strings.ReplaceAll(cluster, "unmodeled.example.com", "other.example.com")
	r = c.runStdin(cluster+"---\n"+other+configMap, "create", "-f", "-")
	assert.Equal(t, 1, r.code)
	assert.Regexp(t, `standard input:\d+: document 3 \(ConfigMap "extra"\): an additional object is stored with the one Cluster of the files it comes in; these files hold 2 clusters`, r.stderr)
	assert.Empty(t, c.storeFiles())
}

// The SSH keys create -f stores are kops's files: delete removes them without --force, and a file
// that is not a key in their folder still makes delete refuse.
func TestDeleteClusterWithSSHKeys(t *testing.T) {
	c := newCLI(t)
	input, err := os.ReadFile("testdata/cluster-with-unmodeled.yaml")
	require.NoError(t, err)
	key, _ := newSSHKey(t)
	r := c.runStdin(string(input)+"---\n"+sshCredentialYAML("unmodeled.example.com", key), "create", "-f", "-")
	require.Equal(t, 0, r.code, r.stderr)

	stray := c.storePath("unmodeled.example.com", "pki", "ssh", "public", "admin", "notes.txt")
	require.NoError(t, os.WriteFile(stray, []byte("x"), 0o644))
	r = c.run("delete", "cluster", "unmodeled.example.com", "--yes")
	assert.Equal(t, 1, r.code)
	assert.Contains(t, r.stderr, "unknown file found")
	assert.Contains(t, r.stderr, "notes.txt")
	assert.DirExists(t, c.storePath("unmodeled.example.com"))

	require.NoError(t, os.Remove(stray))
	r = c.run("delete", "cluster", "unmodeled.example.com", "--yes")
	require.Equal(t, 0, r.code, r.stderr)
	assert.NoDirExists(t, c.storePath("unmodeled.example.com"))
}

// Input of create -f is bounded like every read of the state store: /dev/zero is refused before a
// byte is read, and a pipe that sends more than 16 MiB ends with an error.
func TestCreateFileInputIsBounded(t *testing.T) {
	c := newCLI(t)
	r := c.run("create", "-f", "/dev/zero")
	assert.Equal(t, 1, r.code)
	assert.Contains(t, r.stderr, "reading /dev/zero: /dev/zero: not a regular file (a device)")

	pr, pw, err := os.Pipe()
	require.NoError(t, err)
	defer func() { _ = pr.Close() }()
	go func() {
		_, _ = pw.Write(make([]byte, 17<<20))
		_ = pw.Close() // the reader sees EOF; the test checks what it read
	}()
	r = c.run("create", "-f", fmt.Sprintf("/proc/self/fd/%d", pr.Fd()))
	assert.Equal(t, 1, r.code)
	assert.Contains(t, r.stderr, "more than the limit of 16 MiB")
}
