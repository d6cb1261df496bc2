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
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// snapshotDir reads every file below dir, keyed by its path relative to dir.
func snapshotDir(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	require.NoError(t, filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		out[strings.TrimPrefix(path, dir)] = string(data)
		return err
	}))
	return out
}

// victimNextToStore copies a real cluster's folder to <store>/../victim/x, where a name such as
// "../victim/x" would reach if it were used as a path, and returns its directory.
func victimNextToStore(t *testing.T, c *cli) string {
	t.Helper()
	c.mustRun("create", "cluster", "real.k8s.local", "--zones", "us-east-2a")
	victim := filepath.Join(filepath.Dir(c.storePath()), "victim", "x")
	require.NoError(t, os.CopyFS(victim, os.DirFS(c.storePath("real.k8s.local"))))
	return victim
}

// TestNamesAreNotPathsCLI: a cluster or group name is never a path, wherever it comes from.
func TestNamesAreNotPathsCLI(t *testing.T) {
	cases := []struct {
		name string
		env  map[string]string
		args []string
		// want is the refusal, when it is not the name's.
		want string
	}{
		{"delete", nil, []string{"delete", "cluster", "../victim/x", "--yes"}, ""},
		{"delete --force", nil, []string{"delete", "cluster", "../victim/x", "--yes", "--force"}, ""},
		{"delete --name", nil, []string{"delete", "cluster", "--name", "../victim/x", "--yes"}, ""},
		{"delete KOPS_CLUSTER_NAME", map[string]string{"KOPS_CLUSTER_NAME": "../victim/x"}, []string{"delete", "cluster", "--yes"}, ""},
		{"get cluster", nil, []string{"get", "cluster", "../victim/x", "-o", "yaml"}, ""},
		{"get", nil, []string{"get", "../victim/x", "-o", "yaml"}, `unknown resource type "../victim/x"`},
		{"get all", nil, []string{"get", "all", "../victim/x", "-o", "yaml"}, ""},
		{"get KOPS_CLUSTER_NAME", map[string]string{"KOPS_CLUSTER_NAME": "../victim/x"}, []string{"get", "ig", "-o", "yaml"}, ""},
		{"edit cluster", nil, []string{"edit", "cluster", "../victim/x"}, ""},
		{"edit ig --name", nil, []string{"edit", "ig", "--name", "../victim/x", "nodes"}, ""},
		{"edit ig KOPS_CLUSTER_NAME", map[string]string{"KOPS_CLUSTER_NAME": "../victim/x"}, []string{"edit", "ig", "nodes"}, ""},
		{"edit ig with a path as group", nil, []string{"edit", "ig", "--name", "real.k8s.local", "../../victim/x/instancegroup/nodes"}, ""},
		{"update", nil, []string{"update", "cluster", "../victim/x", "--yes"}, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := newCLI(t)
			victim := victimNextToStore(t, c)
			before := snapshotDir(t, victim)
			c.editor(`s/t3.medium/m5.large/`)
			for k, v := range tc.env {
				c.env[k] = v
			}

			r := c.run(tc.args...)
			assert.Equal(t, 1, r.code, "stdout:\n%s", r.stdout)
			want := "metadata.name: Invalid value: \"../"
			if tc.want != "" {
				want = tc.want
			}
			assert.Contains(t, r.stderr, want)
			assert.NotContains(t, r.stdout, "real.k8s.local", "nothing from outside the store is printed")
			assert.Equal(t, before, snapshotDir(t, victim), "the folder outside the store is intact")
		})
	}
}

func TestCreateFileWithOverlongName(t *testing.T) {
	c := newCLI(t)
	c.mustRun("create", "cluster", "real.k8s.local", "--zones", "us-east-2a")
	doc := c.mustRun("get", "cluster", "real.k8s.local", "-o", "yaml").stdout
	long := strings.Repeat("a", 290) + ".k8s.local"
	file := filepath.Join(t.TempDir(), "long.yaml")
	require.NoError(t, os.WriteFile(file, []byte(strings.ReplaceAll(doc, "real.k8s.local", long)), 0o644))

	r := c.run("create", "-f", file)
	assert.Equal(t, 1, r.code)
	assert.Contains(t, r.stderr, "metadata.name: Invalid value: \"aaaa")
	assert.Contains(t, r.stderr, "(300 characters)\": must be no more than 253 characters")
	assert.Contains(t, r.stderr, file+":4: document 1 (Cluster ", "located in the file")
	assert.NotContains(t, r.stderr, "file name too long")
}

// TestConcurrentCreateCluster runs creates of one name with different zones, so each create has
// its own groups, in several processes at once: one wins, the others say it exists, and the stored
// cluster is the winner's alone.
func TestConcurrentCreateCluster(t *testing.T) {
	if os.Getenv("KOPS_TEST_AS_KOPS") != "" {
		os.Exit(run(strings.Split(os.Getenv("KOPS_TEST_AS_KOPS"), " "), environ(), os.Stdin, os.Stdout, os.Stderr, nil))
	}
	zones := []string{"us-east-2a", "us-east-2b", "us-east-2c", "us-west-2a", "us-west-2b", "us-west-2c"}
	const rounds = 4
	for round := range rounds {
		c := newCLI(t)
		outputs := make([]string, len(zones))
		codes := make([]int, len(zones))
		var wg sync.WaitGroup
		for i, zone := range zones {
			wg.Go(func() {
				cmd := exec.Command(os.Args[0], "-test.run=^TestConcurrentCreateCluster$")
				cmd.Env = append(os.Environ(), "KOPS_STATE_STORE="+c.state,
					"KOPS_TEST_AS_KOPS=create cluster race.k8s.local --zones "+zone)
				out, _ := cmd.CombinedOutput()
				outputs[i], codes[i] = string(out), cmd.ProcessState.ExitCode()
			})
		}
		wg.Wait()
		winner := -1
		for i, code := range codes {
			if code == 0 {
				require.Equal(t, -1, winner, "round %d: two creates succeeded: %v", round, outputs)
				winner = i
			} else {
				assert.Contains(t, outputs[i], `cluster "race.k8s.local" already exists`, "round %d", round)
			}
		}
		require.NotEqual(t, -1, winner, "round %d: no create succeeded: %v", round, outputs)
		r := c.mustRun("get", "ig", "--name", "race.k8s.local")
		assert.Contains(t, r.stdout, "control-plane-"+zones[winner])
		assert.Equal(t, 3, strings.Count(r.stdout, "\n"), "header, control plane, nodes: only the winner's:\n%s", r.stdout)
		entries, err := os.ReadDir(c.storePath("race.k8s.local", "instancegroup"))
		require.NoError(t, err)
		assert.Len(t, entries, 2, "round %d: no group of a losing create is stored", round)
	}
}

// TestEditConflictKeepsUsersFile: the stored group changes while the user edits it; the edit is
// refused, the other change stays, and the user's text is kept in a file the error names.
func TestEditConflictKeepsUsersFile(t *testing.T) {
	c := newCLI(t)
	c.mustRun("create", "cluster", "edit.k8s.local", "--zones", "us-east-2a")
	stored := c.storePath("edit.k8s.local", "instancegroup", "nodes-us-east-2a")
	tmp := t.TempDir()
	c.env["TMPDIR"] = tmp
	// The "user" changes the machine type while someone else changes maxSize in the store.
	c.editor(`s/t3.medium/m5.large/;w /dev/null`)
	script, err := os.ReadFile(c.env["KOPS_EDITOR"])
	require.NoError(t, err)
	concurrent := fmt.Sprintf("sed -i 's/^  maxSize: 1/  maxSize: 5/' %q\n", stored)
	require.NoError(t, os.WriteFile(c.env["KOPS_EDITOR"], []byte(strings.Replace(string(script), "case", concurrent+"case", 1)), 0o755))

	r := c.run("edit", "ig", "nodes-us-east-2a", "--name", "edit.k8s.local")
	assert.Equal(t, 1, r.code)
	assert.Contains(t, r.stderr, `instance group "nodes-us-east-2a" of cluster "edit.k8s.local" was changed in state store`)
	assert.Contains(t, r.stderr, "Your edited file is kept in "+tmp)
	data, err := os.ReadFile(stored)
	require.NoError(t, err)
	assert.Contains(t, string(data), "maxSize: 5", "the other change is not overwritten")
	assert.Contains(t, string(data), "t3.medium")

	kept, _ := filepath.Glob(filepath.Join(tmp, "kops-edit-*", "instancegroup-nodes-us-east-2a.yaml"))
	require.Len(t, kept, 1)
	keptData, err := os.ReadFile(kept[0])
	require.NoError(t, err)
	assert.Contains(t, string(keptData), "machineType: m5.large", "the user's change survives")
}

// TestConcurrentEditsLoseNothing: ten `kops edit ig nodes-us-east-2a` at once, each adding its own label:
// every edit either lands or is refused, and every one that said "updated" is in the store.
func TestConcurrentEditsLoseNothing(t *testing.T) {
	c := newCLI(t)
	c.mustRun("create", "cluster", "edit.k8s.local", "--zones", "us-east-2a")
	const editors = 10
	results := make([]result, editors)
	// Every editor script is written before any editor runs: a script written while another
	// goroutine forks would be held open for writing by the child until it execs, and running it
	// then fails with "text file busy".
	envs := make([]map[string]string, editors)
	for i := range editors {
		dir := t.TempDir()
		editor := filepath.Join(dir, "editor.sh")
		script := fmt.Sprintf("#!/bin/sh\nsleep 0.05\nsed -i 's/^    kops.k8s.io\\/cluster: .*/&\\n    editor-%d: \"yes\"/' \"$1\"\n", i)
		require.NoError(t, os.WriteFile(editor, []byte(script), 0o755))
		envs[i] = map[string]string{"KOPS_STATE_STORE": c.state, "KOPS_EDITOR": editor, "TMPDIR": dir}
	}
	var wg sync.WaitGroup
	for i, env := range envs {
		wg.Go(func() {
			var out, errOut bytes.Buffer
			code := run([]string{"edit", "ig", "nodes-us-east-2a", "--name", "edit.k8s.local"}, env, strings.NewReader(""), &out, &errOut, nil)
			results[i] = result{code, out.String(), errOut.String()}
		})
	}
	wg.Wait()
	stored := c.mustRun("get", "ig", "nodes-us-east-2a", "--name", "edit.k8s.local", "-o", "yaml").stdout
	landed := 0
	for i, r := range results {
		label := fmt.Sprintf("editor-%d: \"yes\"", i)
		if r.code == 0 {
			landed++
			assert.Contains(t, r.stdout, "updated in the state store")
			assert.Contains(t, stored, label, "editor %d said updated but its change is lost", i)
		} else {
			assert.Contains(t, r.stderr, "was changed in state store", "editor %d", i)
			assert.Contains(t, r.stderr, "Your edited file is kept in", "editor %d", i)
			assert.NotContains(t, stored, label)
		}
	}
	t.Logf("%d of %d edits landed, the others were refused", landed, editors)
	assert.GreaterOrEqual(t, landed, 1)
}

func TestDeleteUnknownFilesCLI(t *testing.T) {
	c := newCLI(t)
	c.mustRun("create", "cluster", "gone.k8s.local", "--zones", "us-east-2a")
	c.mustRun("update", "cluster", "gone.k8s.local", "--yes")
	require.FileExists(t, c.storePath("gone.k8s.local", "addons", "bootstrap-channel.yaml"))
	require.NoError(t, os.MkdirAll(c.storePath("gone.k8s.local", "pki"), 0o755))
	require.NoError(t, os.WriteFile(c.storePath("gone.k8s.local", "pki", "ca.key"), []byte("secret"), 0o600))
	// A temp file of a killed write is neither unknown nor left behind.
	require.NoError(t, os.WriteFile(c.storePath("gone.k8s.local", ".config.vfs-tmp-1"), []byte("half"), 0o644))
	before := snapshotDir(t, c.storePath())

	r := c.mustRun("delete", "cluster", "gone.k8s.local")
	assert.Contains(t, r.stdout, "instancegroup/nodes-us-east-2a\n")
	assert.Contains(t, r.stdout, "addons/bootstrap-channel.yaml\n")
	assert.Contains(t, r.stdout, "Unknown files found (the delete refuses unless --force is given):\n  "+"file://"+c.storePath("gone.k8s.local", "pki", "ca.key"))

	r = c.run("delete", "cluster", "gone.k8s.local", "--yes")
	assert.Equal(t, 1, r.code)
	assert.Contains(t, r.stderr, `unknown file found in cluster "gone.k8s.local": file://`+c.storePath("gone.k8s.local", "pki", "ca.key")+"; nothing was deleted")
	assert.Contains(t, r.stderr, "add --force to delete them too")
	assert.Equal(t, before, snapshotDir(t, c.storePath()), "nothing deleted")

	c.mustRun("delete", "cluster", "gone.k8s.local", "--yes", "--force")
	assert.NoDirExists(t, c.storePath("gone.k8s.local"))
}

// TestGetClustersWithABadOne: one corrupt config, one stored under the wrong folder; the good
// cluster is still listed, each bad one is reported, and the command fails.
func TestGetClustersWithABadOne(t *testing.T) {
	c := newCLI(t)
	c.mustRun("create", "cluster", "good.k8s.local", "--zones", "us-east-2a")
	c.mustRun("create", "cluster", "moved.k8s.local", "--zones", "us-east-2a")
	require.NoError(t, os.Rename(c.storePath("moved.k8s.local"), c.storePath("other.k8s.local")))
	require.NoError(t, os.MkdirAll(c.storePath("bad.k8s.local"), 0o755))
	require.NoError(t, os.WriteFile(c.storePath("bad.k8s.local", "config"), []byte("kind: [\n"), 0o644))

	for _, output := range []string{"table", "yaml"} {
		r := c.run("get", "clusters", "-o", output)
		assert.Equal(t, 1, r.code)
		assert.Contains(t, r.stdout, "good.k8s.local")
		assert.NotContains(t, r.stdout, "moved.k8s.local")
		assert.Contains(t, r.stderr, `Error: cluster "bad.k8s.local": `)
		assert.Contains(t, r.stderr, `Error: cluster "other.k8s.local": stored under another name: `)
		assert.Contains(t, r.stderr, `metadata.name is "moved.k8s.local" but the cluster's folder is "other.k8s.local"`)
		assert.Contains(t, r.stderr, "2 of 3 clusters could not be read: bad.k8s.local, other.k8s.local")
	}
	// Not addressable under either name, and not changed (an editor that changes nothing, so that a
	// regression ends the edit instead of waiting for vi).
	c.env["KOPS_EDITOR"] = "true"
	for _, args := range [][]string{{"get", "cluster", "other.k8s.local"}, {"edit", "cluster", "other.k8s.local"}, {"update", "cluster", "other.k8s.local", "--yes"}} {
		r := c.run(args...)
		assert.Equal(t, 1, r.code, "%v", args)
		assert.Contains(t, r.stderr, "stored under another name", "%v", args)
	}
	r := c.run("get", "cluster", "moved.k8s.local")
	assert.Contains(t, r.stderr, `no cluster "moved.k8s.local"`)
}

func TestParentCommandsNeedASubcommand(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"edit", "foo"}, `unknown command "foo" for "kops edit": valid commands are cluster, instancegroup`},
		{[]string{"edit"}, `"kops edit" needs a subcommand: cluster, instancegroup`},
		{[]string{"delete", "foo"}, `unknown command "foo" for "kops delete": valid commands are cluster`},
		{[]string{"delete"}, `"kops delete" needs a subcommand: cluster`},
		{[]string{"update"}, `"kops update" needs a subcommand: cluster`},
		{[]string{"update", "clusters"}, `unknown command "clusters" for "kops update"`},
		{[]string{"validate"}, `"kops validate" needs a subcommand: cluster`},
		{[]string{"validate", "clusterz"}, `unknown command "clusterz" for "kops validate"`},
	}
	for _, tc := range cases {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			r := newCLI(t).run(tc.args...)
			assert.Equal(t, 1, r.code)
			assert.Contains(t, r.stderr, tc.want)
		})
	}
	r := newCLI(t).run("edit", "--help")
	assert.Equal(t, 0, r.code, "asking for help is not an error")
}

// TestEditorWithArgumentsAndQuotes: EDITOR is a command line, as for kubectl: a program in a
// folder with a space, quoted, with an argument; the edited file's own path holds a quote.
func TestEditorWithArgumentsAndQuotes(t *testing.T) {
	c := newCLI(t)
	c.mustRun("create", "cluster", "editor.k8s.local", "--zones", "us-east-2a")
	dir := filepath.Join(t.TempDir(), "my editors")
	require.NoError(t, os.MkdirAll(dir, 0o755))
	editor := filepath.Join(dir, "ed it.sh")
	require.NoError(t, os.WriteFile(editor, []byte("#!/bin/sh\n[ \"$1\" = --wait ] || exit 3\nsed -i 's/t3.medium/m5.large/' \"$2\"\n"), 0o755))
	c.env["KOPS_EDITOR"] = `"` + editor + `" --wait`
	tmp := filepath.Join(t.TempDir(), "it's $(here)")
	require.NoError(t, os.MkdirAll(tmp, 0o755))
	c.env["TMPDIR"] = tmp

	r := c.mustRun("edit", "ig", "nodes-us-east-2a", "--name", "editor.k8s.local")
	assert.Contains(t, r.stdout, "updated in the state store")
	assert.Contains(t, c.mustRun("get", "ig", "nodes-us-east-2a", "--name", "editor.k8s.local").stdout, "m5.large")
}

// TestGetRefusesSpecialFiles: a group that is a FIFO or a symlink to /dev/zero fails `kops get`
// at once with the file named, instead of hanging or reading without end.
func TestGetRefusesSpecialFiles(t *testing.T) {
	cases := []struct {
		name  string
		setup func(path string) error
		want  string
	}{
		{"FIFO", func(path string) error { return syscall.Mkfifo(path, 0o644) }, "not a regular file (a FIFO)"},
		{"symlink to /dev/zero", func(path string) error { return os.Symlink("/dev/zero", path) }, "a symlink (or ..) on the way: it would leave its root folder"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := newCLI(t)
			c.mustRun("create", "cluster", "special.k8s.local", "--zones", "us-east-2a")
			path := c.storePath("special.k8s.local", "instancegroup", "nodes-us-east-2a")
			require.NoError(t, os.Remove(path))
			require.NoError(t, tc.setup(path))

			done := make(chan result, 1)
			go func() { done <- c.run("get", "ig", "--name", "special.k8s.local") }()
			var r result
			select {
			case r = <-done:
			case <-time.After(time.Minute): // a guard against hanging, not a speed check
				t.Fatal("kops get did not return")
			}
			assert.Equal(t, 1, r.code)
			assert.Contains(t, r.stderr, path)
			assert.Contains(t, r.stderr, tc.want)
		})
	}
}

// TestCreateFileLocatesBadGroupNames: a group's name that cannot name a file of the store is
// reported once, with its file and line, and nothing is stored.
func TestCreateFileLocatesBadGroupNames(t *testing.T) {
	c := newCLI(t)
	c.mustRun("create", "cluster", "real.k8s.local", "--zones", "us-east-2a")
	group := c.mustRun("get", "ig", "nodes-us-east-2a", "--name", "real.k8s.local", "-o", "yaml").stdout
	bad := strings.ReplaceAll(group, "name: nodes-us-east-2a\n", "name: Nodes_B\n")
	require.NotEqual(t, group, bad)
	file := filepath.Join(t.TempDir(), "groups.yaml")
	require.NoError(t, os.WriteFile(file, []byte(bad), 0o644))
	before := snapshotDir(t, c.storePath())

	r := c.run("create", "-f", file)
	assert.Equal(t, 1, r.code)
	assert.Contains(t, r.stderr, file+":6: document 1 (InstanceGroup \"Nodes_B\"): metadata.name: Invalid value: \"Nodes_B\"")
	assert.Equal(t, 1, strings.Count(r.stderr, "metadata.name"), "reported once")
	assert.Equal(t, before, snapshotDir(t, c.storePath()), "nothing stored")
}

// TestInputFilesNeverBlock: a FIFO without a writer given to -f or --add reads as empty instead of
// blocking the open forever, /dev/zero is refused before a byte is read, and nothing is stored.
func TestInputFilesNeverBlock(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "fifo")
	require.NoError(t, syscall.Mkfifo(fifo, 0o644))
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"-f FIFO", []string{"create", "-f", fifo}, "no objects found in " + fifo},
		{"-f /dev/zero", []string{"create", "-f", "/dev/zero"}, "not a regular file (a device)"},
		{"--add FIFO", []string{"create", "cluster", "add.k8s.local", "--zones", "us-east-2a", "--add", fifo}, fifo},
		{"--add /dev/zero", []string{"create", "cluster", "add.k8s.local", "--zones", "us-east-2a", "--add", "/dev/zero"}, "not a regular file (a device)"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := newCLI(t)
			c.env["KOPS_FEATURE_FLAGS"] = "ClusterAddons"
			done := make(chan result, 1)
			go func() { done <- c.run(tc.args...) }()
			select {
			case r := <-done:
				assert.Equal(t, 1, r.code, r.stdout)
				assert.Contains(t, r.stderr, tc.want)
			case <-time.After(time.Minute): // a guard against a hang, not a speed check
				t.Fatal("kops did not return")
			}
			assert.NoDirExists(t, c.storePath(), "nothing stored")
		})
	}
}
