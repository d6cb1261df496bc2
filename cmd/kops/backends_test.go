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
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"k8s.io/kops/cmd/internal/s3env"
	"k8s.io/kops/util/pkg/vfs"
	"k8s.io/kops/util/pkg/vfs/s3store"
	"k8s.io/kops/util/pkg/vfs/s3store/s3test"
)

// The CLI suite below runs on every kind of store a user keeps state in: a local folder (file://)
// and a bucket of a real S3 server (s3://, util/pkg/vfs/s3store/s3test). It looks at the store only
// through vfs, so what it checks holds for both.

type backend struct {
	name   string
	newCLI func(t *testing.T) *cli
}

var backends = []backend{
	{"file", newCLI},
	{"s3", func(t *testing.T) *cli { return newS3CLI(t) }},
}

// newS3CLI is a cli whose store is a fresh bucket of the test S3 server, with the S3_* settings a
// user of an S3-compatible server sets.
func newS3CLI(t testing.TB) *cli {
	srv := s3test.Shared(t)
	state := "s3://" + srv.NewBucket(t) + "/kops"
	env := srv.Env()
	env["KOPS_STATE_STORE"] = state
	return &cli{t: t, state: state, env: env}
}

func forEachBackend(t *testing.T, f func(t *testing.T, c *cli)) {
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) { f(t, b.newCLI(t)) })
	}
}

// testPaths is what main gives run, less the AWS default chain: a test reaches no S3 but the one it
// names in S3_ENDPOINT, whatever ~/.aws or AWS_* of the machine say.
func testPaths(env map[string]string) *vfs.Context {
	settings := s3env.Settings(env)
	settings.LoadDefault = nil
	return vfs.NewContext(nil).WithS3(s3store.New(settings))
}

// store is the cli's state store, as the commands see it.
func (c *cli) store() vfs.Path {
	c.t.Helper()
	p, err := testPaths(c.env).ParsePath(c.state)
	require.NoError(c.t, err)
	return p
}

// files reads every file of the store, by its path below it.
func (c *cli) files() map[string]string {
	c.t.Helper()
	out := map[string]string{}
	var walk func(p vfs.Path, rel string)
	walk = func(p vfs.Path, rel string) {
		children, err := p.ReadDir()
		if errors.Is(err, fs.ErrNotExist) {
			return
		}
		require.NoError(c.t, err)
		for _, ch := range children {
			isDir, err := ch.IsDir()
			require.NoError(c.t, err)
			if isDir {
				walk(ch, path.Join(rel, ch.Base()))
				continue
			}
			data, err := ch.ReadFile()
			require.NoError(c.t, err)
			out[path.Join(rel, ch.Base())] = string(data)
		}
	}
	walk(c.store(), "")
	return out
}

// TestHelperKops is kops in a process of its own, for the tests that run several at once or kill
// one: it runs only when KOPS_TEST_HELPER_ARGS is set.
func TestHelperKops(t *testing.T) {
	raw := os.Getenv("KOPS_TEST_HELPER_ARGS")
	if raw == "" {
		return
	}
	var args []string
	if err := json.Unmarshal([]byte(raw), &args); err != nil {
		panic(err)
	}
	env := environ()
	settings := s3env.Settings(env)
	settings.LoadDefault = nil
	settings.Lease = 3 * time.Second // a killed helper's lease expires soon
	os.Exit(run(args, env, os.Stdin, os.Stdout, os.Stderr, vfs.NewContext(nil).WithS3(s3store.New(settings))))
}

// kopsProcess is a kops command in a process of its own, with the cli's environment and extra.
func (c *cli) kopsProcess(extra map[string]string, args ...string) *exec.Cmd {
	raw, _ := json.Marshal(args)
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperKops$")
	cmd.Env = append(os.Environ(), "KOPS_TEST_HELPER_ARGS="+string(raw))
	for k, v := range c.env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	for k, v := range extra {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	return cmd
}

// TestStoreRoundTripCLI: create, list, read, edit, update and delete a cluster; every step's
// answer is the same on every store, and delete leaves the store empty.
func TestStoreRoundTripCLI(t *testing.T) {
	forEachBackend(t, func(t *testing.T, c *cli) {
		c.mustRun("create", "cluster", "round.k8s.local", "--zones", "us-east-2a")
		r := c.mustRun("get", "clusters")
		assert.Equal(t, "NAME             CLOUD  ZONES\nround.k8s.local  aws    us-east-2a\n", r.stdout)
		r = c.mustRun("get", "ig", "--name", "round.k8s.local")
		assert.Contains(t, r.stdout, "control-plane-us-east-2a  ControlPlane  t3.medium    1    1    us-east-2a")
		files := c.files()
		for _, f := range []string{"round.k8s.local/config", "round.k8s.local/instancegroup/nodes-us-east-2a", "round.k8s.local/instancegroup/control-plane-us-east-2a"} {
			assert.Contains(t, files, f, "kops's layout")
		}

		c.editor(`s/kubernetesVersion: .*/kubernetesVersion: 1.34.0/`)
		r = c.mustRun("edit", "cluster", "round.k8s.local")
		assert.Contains(t, r.stdout, `Cluster "round.k8s.local" updated`)
		assert.Contains(t, c.mustRun("get", "cluster", "round.k8s.local", "-o", "yaml").stdout, "kubernetesVersion: 1.34.0")

		c.mustRun("update", "cluster", "round.k8s.local", "--yes")
		files = c.files()
		assert.Contains(t, files, "round.k8s.local/addons/bootstrap-channel.yaml")
		again := c.mustRun("update", "cluster", "round.k8s.local", "--yes")
		assert.Equal(t, files, c.files(), "a second update changes nothing:\n%s", again.stdout)

		c.mustRun("delete", "cluster", "round.k8s.local", "--yes")
		assert.Empty(t, c.files())
		r = c.run("get", "cluster", "round.k8s.local")
		assert.Equal(t, 1, r.code)
		assert.Contains(t, r.stderr, `no cluster "round.k8s.local" in state store `+c.state)
	})
}

// TestBadInputLeavesStoreCLI: each bad command fails with a message that says why, and the store
// is byte for byte what it was.
func TestBadInputLeavesStoreCLI(t *testing.T) {
	forEachBackend(t, func(t *testing.T, c *cli) {
		c.mustRun("create", "cluster", "bad.k8s.local", "--zones", "us-east-2a")
		before := c.files()
		tests := []struct {
			args []string
			want string
		}{
			{[]string{"create", "cluster", "bad.k8s.local", "--zones", "us-east-2a"}, `cluster "bad.k8s.local" already exists`},
			{[]string{"create", "cluster", "Bad_Name", "--zones", "us-east-2a"}, "metadata.name: Invalid value"},
			{[]string{"get", "cluster", "../bad.k8s.local"}, "metadata.name: Invalid value"},
			{[]string{"delete", "cluster", "missing.k8s.local", "--yes"}, `no cluster "missing.k8s.local"`},
			{[]string{"update", "cluster", "missing.k8s.local", "--yes"}, `no cluster "missing.k8s.local"`},
		}
		for _, tt := range tests {
			r := c.run(tt.args...)
			assert.Equal(t, 1, r.code, "kops %s", strings.Join(tt.args, " "))
			assert.Contains(t, r.stderr, tt.want, "kops %s", strings.Join(tt.args, " "))
		}
		c.editor("s/provider: CoreDNS/provider: CoreDSN/", "s/^# .*//")
		r := c.run("edit", "cluster", "bad.k8s.local")
		assert.Equal(t, 1, r.code)
		assert.Contains(t, r.stderr, "Edit cancelled, no valid changes were saved")
		assert.Equal(t, before, c.files(), "the store is unchanged")
	})
}

// TestConcurrentCreatesProcessesCLI: creates of one name with different zones in several processes
// at once: one wins, the others say it exists, and the stored groups are the winner's alone.
func TestConcurrentCreatesProcessesCLI(t *testing.T) {
	zones := []string{"us-east-2a", "us-east-2b", "us-east-2c", "us-west-2a"}
	forEachBackend(t, func(t *testing.T, c *cli) {
		outputs := make([]string, len(zones))
		codes := make([]int, len(zones))
		var wg sync.WaitGroup
		for i, zone := range zones {
			cmd := c.kopsProcess(nil, "create", "cluster", "race.k8s.local", "--zones", zone)
			wg.Go(func() {
				out, _ := cmd.CombinedOutput()
				outputs[i], codes[i] = string(out), cmd.ProcessState.ExitCode()
			})
		}
		wg.Wait()
		winner := -1
		for i, code := range codes {
			if code == 0 {
				require.Equal(t, -1, winner, "two creates succeeded: %v", outputs)
				winner = i
			} else {
				assert.Contains(t, outputs[i], `cluster "race.k8s.local" already exists`)
			}
		}
		require.NotEqual(t, -1, winner, "no create succeeded: %v", outputs)
		var groups []string
		for f := range c.files() {
			if dir, name := path.Split(f); dir == "race.k8s.local/instancegroup/" {
				groups = append(groups, name)
			}
		}
		assert.ElementsMatch(t, []string{"control-plane-" + zones[winner], "nodes-" + zones[winner]}, groups)
	})
}

// TestConcurrentEditsProcessesCLI: several `kops edit ig` processes at once, each adding its own
// label: each either lands or is refused keeping the user's text, and none that said "updated" is
// lost.
func TestConcurrentEditsProcessesCLI(t *testing.T) {
	forEachBackend(t, func(t *testing.T, c *cli) {
		c.mustRun("create", "cluster", "edit.k8s.local", "--zones", "us-east-2a")
		const editors = 6
		cmds := make([]*exec.Cmd, editors)
		outs := make([]*bytes.Buffer, editors)
		for i := range editors {
			dir := t.TempDir()
			editor := filepath.Join(dir, "editor.sh")
			script := fmt.Sprintf("#!/bin/sh\nsleep 0.1\nsed -i 's/^    kops.k8s.io\\/cluster: .*/&\\n    editor-%d: \"yes\"/' \"$1\"\n", i)
			require.NoError(t, os.WriteFile(editor, []byte(script), 0o755))
			cmds[i] = c.kopsProcess(map[string]string{"KOPS_EDITOR": editor, "TMPDIR": dir}, "edit", "ig", "nodes-us-east-2a", "--name", "edit.k8s.local")
			outs[i] = &bytes.Buffer{}
			cmds[i].Stdout, cmds[i].Stderr = outs[i], outs[i]
		}
		var wg sync.WaitGroup
		for _, cmd := range cmds {
			wg.Go(func() { _ = cmd.Run() })
		}
		wg.Wait()
		stored := c.mustRun("get", "ig", "nodes-us-east-2a", "--name", "edit.k8s.local", "-o", "yaml").stdout
		landed := 0
		for i, cmd := range cmds {
			label := fmt.Sprintf("editor-%d: \"yes\"", i)
			if cmd.ProcessState.ExitCode() == 0 {
				landed++
				assert.Contains(t, stored, label, "editor %d said updated but its change is lost", i)
			} else {
				assert.Contains(t, outs[i].String(), "was changed in state store", "editor %d", i)
				assert.Contains(t, outs[i].String(), "Your edited file is kept in", "editor %d", i)
				assert.NotContains(t, stored, label)
			}
		}
		t.Logf("%d of %d edits landed", landed, editors)
		assert.GreaterOrEqual(t, landed, 1)
	})
}

// TestKillDuringUpdateCLI: `kops update cluster --yes` killed with SIGKILL at several moments leaves
// a store the next commands work with: the next update completes (once a lease the killed one held
// expires), and the store then holds what an uninterrupted update writes.
func TestKillDuringUpdateCLI(t *testing.T) {
	forEachBackend(t, func(t *testing.T, c *cli) {
		c.mustRun("create", "cluster", "kill.k8s.local", "--zones", "us-east-2a")
		ref := newCLI(t)
		ref.mustRun("create", "cluster", "kill.k8s.local", "--zones", "us-east-2a")
		ref.mustRun("update", "cluster", "kill.k8s.local", "--yes")
		want := ref.files()

		for _, after := range []time.Duration{50 * time.Millisecond, 200 * time.Millisecond, 500 * time.Millisecond} {
			cmd := c.kopsProcess(nil, "update", "cluster", "kill.k8s.local", "--yes")
			require.NoError(t, cmd.Start())
			time.Sleep(after)
			_ = cmd.Process.Signal(syscall.SIGKILL)
			_ = cmd.Wait()
			c.mustRun("get", "clusters")
			c.mustRun("update", "cluster", "kill.k8s.local", "--yes")
			assert.Equal(t, want, c.files(), "killed after %s: the store holds what an uninterrupted update writes", after)
		}
		c.mustRun("delete", "cluster", "kill.k8s.local", "--yes")
		assert.Empty(t, c.files())
	})
}

// TestFileStoreCopiedToBucket: a store written through file:// and copied object by object into a
// bucket (as `aws s3 sync` would) reads back the same through s3://, and a bucket written through
// s3:// copied to a folder reads back the same through file://: the layouts are one.
func TestFileStoreCopiedToBucket(t *testing.T) {
	local := newCLI(t)
	local.mustRun("create", "cluster", "copy.k8s.local", "--zones", "us-east-2a,us-east-2b")
	local.editor(`s/kubernetesVersion: .*/kubernetesVersion: 1.34.0/`)
	local.mustRun("edit", "cluster", "copy.k8s.local")
	local.mustRun("update", "cluster", "copy.k8s.local", "--yes")
	bucket := newS3CLI(t)
	for name, data := range local.files() {
		require.NoError(t, bucket.store().Join(name).WriteFile([]byte(data)))
	}
	for _, args := range [][]string{
		{"get", "clusters"},
		{"get", "cluster", "copy.k8s.local", "-o", "yaml"},
		{"get", "ig", "--name", "copy.k8s.local", "-o", "yaml"},
	} {
		assert.Equal(t, local.mustRun(args...).stdout, bucket.mustRun(args...).stdout, "kops %s", strings.Join(args, " "))
	}
	bucket.mustRun("update", "cluster", "copy.k8s.local", "--yes")
	assert.Equal(t, local.files(), bucket.files(), "an update of the copy has nothing to change")

	back := newCLI(t)
	for name, data := range bucket.files() {
		require.NoError(t, back.store().Join(name).WriteFile([]byte(data)))
	}
	assert.Equal(t, local.mustRun("get", "cluster", "copy.k8s.local", "-o", "yaml").stdout,
		back.mustRun("get", "cluster", "copy.k8s.local", "-o", "yaml").stdout)
}

// thousandClusters fills c's store with 1,000 clusters, each stored as `kops create cluster` stores
// one (its config and groups, copied from one made by the CLI under the other names).
func thousandClusters(tb testing.TB, c *cli) *cli {
	c.mustRun("create", "cluster", "c0000.k8s.local", "--zones", "us-east-2a")
	files := c.files()
	store := c.store()
	sem := make(chan struct{}, 32)
	errs := make(chan error, 1000)
	for i := 1; i < 1000; i++ {
		sem <- struct{}{}
		go func() {
			defer func() { <-sem }()
			name := fmt.Sprintf("c%04d.k8s.local", i)
			var err error
			for f, data := range files {
				f = strings.Replace(f, "c0000.k8s.local", name, 1)
				if err = store.Join(f).WriteFile([]byte(strings.ReplaceAll(data, "c0000.k8s.local", name))); err != nil {
					break
				}
			}
			errs <- err
		}()
	}
	for i := 1; i < 1000; i++ {
		require.NoError(tb, <-errs)
	}
	return c
}

// TestGetThousandClustersS3: `kops get clusters` lists every cluster of a bucket of 1,000 (how
// long it takes is BenchmarkGetThousandClusters's, in docs/performance.md).
func TestGetThousandClustersS3(t *testing.T) {
	c := thousandClusters(t, newS3CLI(t))
	r := c.mustRun("get", "clusters")
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	require.Len(t, lines, 1001)
	assert.Equal(t, "c0000.k8s.local  aws    us-east-2a", lines[1])
	assert.Equal(t, "c0999.k8s.local  aws    us-east-2a", lines[1000])
}

// BenchmarkGetThousandClusters is `kops get clusters` (in process, a new S3 client per run as for
// the binary) over a store of 1,000 clusters, on each kind of store.
func BenchmarkGetThousandClusters(b *testing.B) {
	for _, s := range []struct {
		name   string
		newCLI func(testing.TB) *cli
	}{
		{"file", func(tb testing.TB) *cli {
			state := "file://" + filepath.Join(tb.TempDir(), "state")
			return &cli{t: tb, state: state, env: map[string]string{"KOPS_STATE_STORE": state}}
		}},
		{"s3", newS3CLI},
	} {
		b.Run(s.name, func(b *testing.B) {
			c := thousandClusters(b, s.newCLI(b))
			for b.Loop() {
				c.mustRun("get", "clusters")
			}
		})
	}
}
