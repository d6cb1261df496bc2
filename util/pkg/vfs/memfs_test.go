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
	"fmt"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func memRoot(t *testing.T, mem *MemFS, s string) Path {
	t.Helper()
	p, err := ParsePath(s, mem)
	require.NoError(t, err)
	return p
}

func TestMemFSStats(t *testing.T) {
	tests := []struct {
		name                    string
		run                     func(root Path)
		wantWrites, wantRemoves int
	}{
		{"reads and listings count nothing", func(root Path) {
			_, _ = root.Join("f").ReadFile()
			_, _ = root.ReadDir()
			_, _ = root.Join("f").Exists()
		}, 0, 0},
		{"each write counts, even with equal content", func(root Path) {
			_ = root.Join("f").WriteFile([]byte("x"))
			_ = root.Join("f").WriteFile([]byte("x"))
		}, 2, 0},
		{"failed write does not count", func(root Path) {
			_ = root.Join("d/f").WriteFile(nil)
			_ = root.Join("d").WriteFile(nil)
		}, 1, 0},
		{"removes that delete something count", func(root Path) {
			_ = root.Join("d/f").WriteFile(nil)
			_ = root.Join("g").WriteFile(nil)
			_ = root.Join("g").Remove()
			_ = root.Join("d").RemoveAll()
		}, 2, 2},
		{"removes of missing paths do not count", func(root Path) {
			_ = root.Join("missing").Remove()
			_ = root.Join("missing").RemoveAll()
		}, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			mem := &MemFS{}
			tt.run(memRoot(t, mem, "memfs://test"))
			writes, removes := mem.Stats()
			assert.Equal(t, tt.wantWrites, writes, "writes")
			assert.Equal(t, tt.wantRemoves, removes, "removes")
		})
	}
}

func TestMemFSStoresAreIsolated(t *testing.T) {
	mem := &MemFS{}
	a, b := memRoot(t, mem, "memfs://a"), memRoot(t, mem, "memfs://b")
	require.NoError(t, a.Join("f").WriteFile([]byte("in a")))

	assert.False(t, exists(t, b.Join("f")), "other name in same MemFS")
	assert.False(t, exists(t, memRoot(t, &MemFS{}, "memfs://a/f")), "same name in another MemFS")
	require.NoError(t, b.RemoveAll())
	assert.Equal(t, "in a", read(t, a.Join("f")))
}

// TestMemFSConcurrentUse relies on -race to catch unguarded access: every
// worker interleaves listings and reads with its writes.
func TestMemFSConcurrentUse(t *testing.T) {
	mem := &MemFS{}
	root := memRoot(t, mem, "memfs://test")
	const workers, rounds = 8, 20
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for r := range rounds {
				p := root.Join(fmt.Sprintf("c%d", r%3), fmt.Sprintf("w%d-%02d", w, r))
				_, _ = root.ReadDir()
				_, _ = p.Exists()
				assert.NoError(t, p.WriteFile([]byte(p.String())))
				_, _ = p.ReadFile()
			}
		})
	}
	wg.Wait()

	writes, _ := mem.Stats()
	assert.Equal(t, workers*rounds, writes)
	dirs, err := root.ReadDir()
	require.NoError(t, err)
	total := 0
	for _, d := range dirs {
		files, err := d.ReadDir()
		require.NoError(t, err)
		for _, f := range files {
			assert.Equal(t, f.String(), read(t, f))
		}
		total += len(files)
	}
	assert.Equal(t, workers*rounds, total)
}
