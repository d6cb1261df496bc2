package main

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"k8s.io/kops/util/pkg/vfs"
)

// TestUpdateWritesNoAddonsThroughSymlinks: `kops update cluster --yes` writes <cluster>/addons/;
// a symlink placed there (the folder itself, or an addon's folder) must not carry its writes out of
// the store.
func TestUpdateWritesNoAddonsThroughSymlinks(t *testing.T) {
	for _, link := range []string{"addons", filepath.Join("addons", "coredns.addons.k8s.io")} {
		t.Run(link, func(t *testing.T) {
			c := newCLI(t)
			c.mustRun("create", "cluster", "sym.k8s.local", "--zones", "us-east-2a")
			outside := t.TempDir()
			require.NoError(t, os.MkdirAll(filepath.Dir(c.storePath("sym.k8s.local", link)), 0o755))
			require.NoError(t, os.Symlink(outside, c.storePath("sym.k8s.local", link)))

			r := c.run("update", "cluster", "sym.k8s.local", "--yes")
			assert.Equal(t, 1, r.code)
			assert.Contains(t, r.stderr, "is not a folder (a symlink is not written through)")
			entries, err := os.ReadDir(outside)
			require.NoError(t, err)
			assert.Empty(t, entries, "nothing written outside the store")
		})
	}
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
