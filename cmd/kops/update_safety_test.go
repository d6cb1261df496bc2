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
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"k8s.io/kops/util/pkg/vfs"
)

// TestNoCommandWritesThroughSymlinks derives its cases from what the commands write: every folder
// of a cluster after `kops update cluster --yes` (addons/, each addon's folder, igconfig/, each
// role's and group's folder, and the folders create writes) is in turn replaced by a symlink to a
// copy outside the store, and every command that writes or deletes runs. Nothing outside the store
// may change; an update that would write through the link fails before it writes anything; a
// delete removes the link, never what it points to.
func TestNoCommandWritesThroughSymlinks(t *testing.T) {
	const name = "sym.k8s.local"
	layout := newCLI(t)
	layout.mustRun("create", "cluster", name, "--zones", "us-east-2a", "--yes")
	// A change to write, so that update has something to do in every folder.
	layout.editor(`s/kubernetesVersion: .*/kubernetesVersion: 1.34.0/`)
	layout.mustRun("edit", "cluster", name)
	var folders []string
	require.NoError(t, filepath.WalkDir(layout.storePath(name), func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			rel, _ := filepath.Rel(layout.storePath(), p)
			folders = append(folders, rel)
		}
		return err
	}))
	for _, want := range []string{"addons", filepath.Join("addons", "coredns.addons.k8s.io"), "igconfig",
		filepath.Join("igconfig", "node"), filepath.Join("igconfig", "node", "nodes-us-east-2a"), "instancegroup"} {
		require.Contains(t, folders, filepath.Join(name, want))
	}
	commands := [][]string{
		{"update", "cluster", name, "--yes"},
		{"update", "cluster", name, "--target", "terraform", "--out", "OUT", "--yes"},
		{"delete", "cluster", name, "--yes"},
		{"delete", "cluster", name, "--yes", "--force"},
	}
	for _, folder := range folders {
		for _, args := range commands {
			t.Run(folder+"/"+strings.Join(args[:2], " ")+strings.Join(args[3:], " "), func(t *testing.T) {
				c := newCLI(t)
				require.NoError(t, os.CopyFS(c.storePath(), os.DirFS(layout.storePath())))
				outside := filepath.Join(t.TempDir(), "outside")
				require.NoError(t, os.Rename(c.storePath(folder), outside))
				require.NoError(t, os.Symlink(outside, c.storePath(folder)))
				before := treeSnapshot(t, outside)
				store := storeSnapshot(t, c)
				args := slices.Clone(args)
				if i := slices.Index(args, "OUT"); i >= 0 {
					args[i] = filepath.Join(t.TempDir(), "out")
				}

				r := c.run(args...)
				assert.Equal(t, before, treeSnapshot(t, outside), "nothing outside the store changed: %s", r.stderr)
				if args[0] == "update" {
					assert.Equal(t, 1, r.code, "an update that would write through a link is refused")
					assert.Equal(t, store, storeSnapshot(t, c), "and writes nothing")
				}
			})
		}
	}
}

// treeSnapshot is every file below dir with its content.
func treeSnapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	files := map[string]string{}
	require.NoError(t, filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		files[p] = string(data)
		return err
	}))
	return files
}

// TestUpdateHoldsTheStoreLock: an update that writes waits for the store lock that creates, edits
// and deletes hold, so it cannot interleave with a delete of the same cluster.
func TestUpdateHoldsTheStoreLock(t *testing.T) {
	c := newCLI(t)
	c.mustRun("create", "cluster", "locked.k8s.local", "--zones", "us-east-2a")
	base, err := vfs.ParsePath(c.state, nil)
	require.NoError(t, err)
	unlock, err := base.Join(".kops" + vfs.LockSuffix).Lock()
	require.NoError(t, err)

	done := make(chan result, 1)
	go func() { done <- c.run("update", "cluster", "locked.k8s.local", "--yes") }()
	select {
	case r := <-done:
		unlock()
		t.Fatalf("update finished while another command held the store lock: %+v", r)
	case <-time.After(300 * time.Millisecond):
	}
	assert.NoFileExists(t, c.storePath("locked.k8s.local", "addons", "bootstrap-channel.yaml"), "nothing written under another's lock")
	unlock()
	r := <-done
	require.Equal(t, 0, r.code, r.stderr)
	assert.FileExists(t, c.storePath("locked.k8s.local", "addons", "bootstrap-channel.yaml"))
}
