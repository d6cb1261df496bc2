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

package vfs

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestLockIsExclusive has many goroutines (each with its own lock file descriptor on file://)
// do a read-modify-write that loses updates unless the lock serialises them.
func TestLockIsExclusive(t *testing.T) {
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) {
			root := b.root(t)
			lock := root.Join(".lock")
			counter := root.Join("counter")
			require.NoError(t, counter.WriteFile(nil))
			const workers, rounds = 8, 10
			var wg sync.WaitGroup
			for range workers {
				wg.Go(func() {
					for range rounds {
						unlock, err := lock.Lock()
						if !assert.NoError(t, err) {
							return
						}
						data, err := counter.ReadFile()
						assert.NoError(t, err)
						assert.NoError(t, counter.WriteFile(append(data, 'x')))
						unlock()
					}
				})
			}
			wg.Wait()
			assert.Len(t, read(t, counter), workers*rounds, "every increment survives")
		})
	}
}

// TestLockReleasedWhenHolderIsKilled: a command killed while holding the store lock must not
// block the next one.
func TestLockReleasedWhenHolderIsKilled(t *testing.T) {
	if os.Getenv("VFS_TEST_HOLD_LOCK") != "" {
		unlock, err := pathOf(os.Getenv("VFS_TEST_HOLD_LOCK")).Lock()
		if err != nil {
			os.Exit(2)
		}
		defer unlock()
		if _, err := os.Stdout.WriteString("locked\n"); err != nil {
			os.Exit(2)
		}
		time.Sleep(time.Hour)
		return
	}
	lockFile := filepath.Join(t.TempDir(), ".lock")
	cmd := exec.Command(os.Args[0], "-test.run=^TestLockReleasedWhenHolderIsKilled$")
	cmd.Env = append(os.Environ(), "VFS_TEST_HOLD_LOCK="+lockFile)
	out, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	line, err := bufio.NewReader(out).ReadString('\n')
	require.NoError(t, err)
	require.Equal(t, "locked\n", line)

	require.NoError(t, cmd.Process.Kill())
	_ = cmd.Wait()

	unlock, err := pathOf(lockFile).Lock()
	require.NoError(t, err)
	unlock()
}

func TestWriteSweepsStaleTempFiles(t *testing.T) {
	dir := t.TempDir()
	stale := filepath.Join(dir, ".config"+tempInfix+"111")
	fresh := filepath.Join(dir, ".config"+tempInfix+"222")
	other := filepath.Join(dir, "nodes")
	for _, f := range []string{stale, fresh, other} {
		require.NoError(t, os.WriteFile(f, []byte("x"), 0o644))
	}
	old := time.Now().Add(-2 * staleTempAge)
	require.NoError(t, os.Chtimes(stale, old, old))
	require.NoError(t, os.Chtimes(other, old, old))

	require.NoError(t, pathOf(filepath.Join(dir, "config")).WriteFile([]byte("new")))

	assert.NoFileExists(t, stale, "a stale temp file is swept by the next write")
	assert.FileExists(t, fresh, "a temp file a live writer may own is kept")
	assert.FileExists(t, other, "only temp files are swept")
}
