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
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestJoinRefusesLeavingItsBase is the vfs half of "names are not paths": whatever a caller
// passes, a joined path cannot read, write, list or remove anything outside the path it was
// joined to.
func TestJoinRefusesLeavingItsBase(t *testing.T) {
	refusedJoins := [][]string{
		{".."}, {"../victim"}, {"../victim/config"}, {"a/../../victim"}, {"a", "..", "..", "victim"},
		{"/etc/passwd"}, {""}, {"."}, {"a/.."}, {"./"},
	}
	for _, b := range backends {
		for _, elems := range refusedJoins {
			t.Run(b.name+"/"+strings.Join(elems, ","), func(t *testing.T) {
				root := b.root(t)
				write(t, root, map[string]string{"cluster/config": "mine"})
				// A sibling of the store, as in "kops delete cluster ../victim".
				victim := root.Dir().Join("victim")
				write(t, victim, map[string]string{"config": "theirs"})

				for _, base := range []Path{root, root.Join("cluster")} {
					p := base.Join(elems...)
					_, err := p.ReadFile()
					assert.ErrorIs(t, err, ErrOutsideBase, "ReadFile")
					assert.ErrorIs(t, p.WriteFile([]byte("x")), ErrOutsideBase, "WriteFile")
					assert.ErrorIs(t, p.Join("config").WriteFile([]byte("x")), ErrOutsideBase, "Join of a refused path")
					assert.ErrorIs(t, p.Remove(), ErrOutsideBase, "Remove")
					assert.ErrorIs(t, p.RemoveAll(), ErrOutsideBase, "RemoveAll")
					assert.ErrorIs(t, p.RemoveDir(), ErrOutsideBase, "RemoveDir")
					_, err = p.ReadDir()
					assert.ErrorIs(t, err, ErrOutsideBase, "ReadDir")
					_, err = p.Exists()
					assert.ErrorIs(t, err, ErrOutsideBase, "Exists")
					_, err = p.Lock()
					assert.ErrorIs(t, err, ErrOutsideBase, "Lock")
				}
				assert.Equal(t, "theirs", read(t, victim.Join("config")))
				assert.Equal(t, "mine", read(t, root.Join("cluster/config")))
			})
		}
	}
}

func TestJoinAcceptsPathsBelowItsBase(t *testing.T) {
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) {
			root := b.root(t)
			assert.Equal(t, root.String()+"/b", root.Join("a/../b").String())
			assert.Equal(t, root.String()+"/a/b", root.Join("a/./b/").String())
			assert.Equal(t, root.String()+"/..a", root.Join("..a").String(), "a name starting with dots is a name")
			assert.Equal(t, root.String(), root.Join("a").Dir().String())
		})
	}
}

func TestReadFileOnlyReadsBoundedRegularFiles(t *testing.T) {
	if os.PathSeparator != '/' {
		t.Skip("POSIX special files")
	}
	tests := []struct {
		name  string
		setup func(t *testing.T, path string)
		want  error
		msg   string
	}{
		{"symlink to /dev/zero", func(t *testing.T, path string) { require.NoError(t, os.Symlink("/dev/zero", path)) }, ErrNotRegular, "a device"},
		{"FIFO", func(t *testing.T, path string) { require.NoError(t, mkfifo(path)) }, ErrNotRegular, "a FIFO"},
		{"symlink to a FIFO", func(t *testing.T, path string) {
			require.NoError(t, mkfifo(path+".fifo"))
			require.NoError(t, os.Symlink(filepath.Base(path)+".fifo", path))
		}, ErrNotRegular, "a FIFO"},
		{"directory", func(t *testing.T, path string) { require.NoError(t, os.Mkdir(path, 0o755)) }, ErrNotRegular, "a directory"},
		{"larger than the limit", func(t *testing.T, path string) {
			f, err := os.Create(path)
			require.NoError(t, err)
			require.NoError(t, f.Truncate(MaxFileSize+1)) // sparse: no 16 MiB written
			require.NoError(t, f.Close())
		}, ErrTooLarge, "16777217 bytes, more than the limit of 16 MiB"},
	}
	// Every read goes through one of these: a file below a root, a root the user named itself
	// (a channel file, --kubeconfig), or a file the user named (ReadLocalFile).
	readers := map[string]func(path string) ([]byte, error){
		"below a root":   func(path string) ([]byte, error) { return pathOf(path).ReadFile() },
		"a named root":   func(path string) ([]byte, error) { return localPath(path).ReadFile() },
		"ReadLocalFile":  func(path string) ([]byte, error) { return ReadLocalFile(path, false) },
		"ReadLocalFile+": func(path string) ([]byte, error) { return ReadLocalFile(path, true) },
	}
	for _, tt := range tests {
		for reader, readFile := range readers {
			t.Run(tt.name+"/"+reader, func(t *testing.T) {
				dir := t.TempDir()
				path := filepath.Join(dir, "nodes")
				tt.setup(t, path)
				done := make(chan error, 1)
				go func() {
					_, err := readFile(path)
					done <- err
				}()
				err := <-done // a FIFO opened for blocking read would hang here
				if reader == "ReadLocalFile+" && strings.Contains(tt.name, "FIFO") {
					assert.NoError(t, err, "a FIFO without a writer reads as empty when pipes are allowed")
					return
				}
				require.Error(t, err)
				switch {
				case reader == "below a root" && tt.name == "symlink to /dev/zero":
					assert.ErrorIs(t, err, ErrOutsideBase, "an absolute link leaves the root")
				default:
					assert.ErrorIs(t, err, tt.want)
					assert.Contains(t, err.Error(), tt.msg)
				}
				assert.Contains(t, err.Error(), path, "the error names the file")
			})
		}
	}
	t.Run("exactly the limit is read", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "big")
		require.NoError(t, os.WriteFile(path, make([]byte, MaxFileSize), 0o644))
		data, err := pathOf(path).ReadFile()
		require.NoError(t, err)
		assert.Len(t, data, MaxFileSize)
	})
	t.Run("symlink to a regular file inside the root is read", func(t *testing.T) {
		dir := t.TempDir()
		require.NoError(t, os.WriteFile(filepath.Join(dir, "real"), []byte("x"), 0o644))
		require.NoError(t, os.Symlink("real", filepath.Join(dir, "link")))
		assert.Equal(t, "x", read(t, pathOf(filepath.Join(dir, "link"))))
	})
}

// TestReadLocalFileReadsPipes: `kops create -f <(...)` names a pipe (/dev/fd/N) that has a writer;
// it is read, up to the same bound as a file, when the caller allows pipes.
func TestReadLocalFileReadsPipes(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("/proc/self/fd")
	}
	pipe := func(t *testing.T, data []byte) string {
		r, w, err := os.Pipe()
		require.NoError(t, err)
		t.Cleanup(func() { _ = r.Close() })
		go func() {
			_, _ = w.Write(data)
			_ = w.Close() // the reader sees EOF; the test checks what it read
		}()
		return fmt.Sprintf("/proc/self/fd/%d", r.Fd())
	}
	data, err := ReadLocalFile(pipe(t, []byte("kind: Cluster\n")), true)
	require.NoError(t, err)
	assert.Equal(t, "kind: Cluster\n", string(data))

	_, err = ReadLocalFile(pipe(t, []byte("x")), false)
	assert.ErrorIs(t, err, ErrNotRegular, "a pipe where only files are read")

	_, err = ReadLocalFile(pipe(t, make([]byte, MaxFileSize+1)), true)
	assert.ErrorIs(t, err, ErrTooLarge)
}

func TestMemFSReadFileLimit(t *testing.T) {
	root := memRoot(t, &MemFS{}, "memfs://test")
	require.NoError(t, root.Join("big").WriteFile(make([]byte, MaxFileSize+1)))
	_, err := root.Join("big").ReadFile()
	assert.ErrorIs(t, err, ErrTooLarge)
	require.NoError(t, root.Join("d/f").WriteFile(nil))
	_, err = root.Join("d").ReadFile()
	assert.ErrorIs(t, err, ErrNotRegular)
}

func TestRemoveDir(t *testing.T) {
	for _, b := range backends {
		t.Run(b.name+"/keeps a directory with files", func(t *testing.T) {
			root := b.root(t)
			write(t, root, map[string]string{"d/f": "x"})
			assert.Error(t, root.Join("d").RemoveDir())
			assert.Equal(t, "x", read(t, root.Join("d/f")))
		})
		t.Run(b.name+"/removes an empty directory", func(t *testing.T) {
			root := b.root(t)
			write(t, root, map[string]string{"d/f": "x"})
			require.NoError(t, root.Join("d/f").Remove())
			require.NoError(t, root.Join("d").RemoveDir())
			assert.False(t, exists(t, root.Join("d")))
		})
	}
	t.Run("file/removes leftover temp files with the directory", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "d")
		require.NoError(t, os.Mkdir(dir, 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(dir, ".config"+tempInfix+"123"), nil, 0o644))
		require.NoError(t, pathOf(dir).RemoveDir())
		_, err := os.Stat(dir)
		assert.True(t, errors.Is(err, os.ErrNotExist))
	})
}
