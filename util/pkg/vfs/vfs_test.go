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
	"io/fs"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// backends returns a fresh, empty root directory for each implementation, so
// every behaviour below is checked to be identical on both.
var backends = []struct {
	name string
	root func(t *testing.T) Path
}{
	{"file", func(t *testing.T) Path {
		p, err := ParsePath(t.TempDir(), nil)
		require.NoError(t, err)
		return p.Join("state") // not created yet, like a fresh state store
	}},
	{"memfs", func(t *testing.T) Path {
		p, err := ParsePath("memfs://test/state", &MemFS{})
		require.NoError(t, err)
		return p
	}},
}

func write(t *testing.T, root Path, files map[string]string) {
	t.Helper()
	for name, data := range files {
		require.NoError(t, root.Join(name).WriteFile([]byte(data)), name)
	}
}

func read(t *testing.T, p Path) string {
	t.Helper()
	data, err := p.ReadFile()
	require.NoError(t, err, p.String())
	return string(data)
}

func names(paths []Path) []string {
	out := []string{}
	for _, p := range paths {
		out = append(out, p.Base())
	}
	return out
}

func exists(t *testing.T, p Path) bool {
	t.Helper()
	ok, err := p.Exists()
	require.NoError(t, err, p.String())
	return ok
}

func TestPathBehaviour(t *testing.T) {
	tests := []struct {
		name string
		run  func(t *testing.T, root Path)
	}{
		{"Join, Base and String", func(t *testing.T, root Path) {
			p := root.Join("a", "b/c")
			assert.Equal(t, "c", p.Base())
			assert.Equal(t, root.String()+"/a/b/c", p.String())
			assert.Equal(t, root.String(), root.Join().String())
			assert.Equal(t, root.String()+"/b", root.Join("a", "..", "b").String())
			assert.Equal(t, "state", root.Base())
		}},
		{"write then read, creating parents", func(t *testing.T, root Path) {
			require.NoError(t, root.Join("c1/config").WriteFile([]byte("spec: 1\n")))
			assert.Equal(t, "spec: 1\n", read(t, root.Join("c1", "config")))
		}},
		{"overwrite replaces all content", func(t *testing.T, root Path) {
			write(t, root, map[string]string{"f": "long original content"})
			require.NoError(t, root.Join("f").WriteFile([]byte("short")))
			assert.Equal(t, "short", read(t, root.Join("f")))
		}},
		{"empty file", func(t *testing.T, root Path) {
			require.NoError(t, root.Join("empty").WriteFile(nil))
			assert.Equal(t, "", read(t, root.Join("empty")))
			assert.True(t, exists(t, root.Join("empty")))
		}},
		{"caller's slices are not shared", func(t *testing.T, root Path) {
			in := []byte("abc")
			require.NoError(t, root.Join("f").WriteFile(in))
			in[0] = 'X'
			out, err := root.Join("f").ReadFile()
			require.NoError(t, err)
			out[1] = 'Y'
			assert.Equal(t, "abc", read(t, root.Join("f")))
		}},
		{"read missing file or parent is ErrNotExist", func(t *testing.T, root Path) {
			write(t, root, map[string]string{"present": "x"})
			for _, p := range []Path{root.Join("missing"), root.Join("nodir", "f")} {
				_, err := p.ReadFile()
				assert.ErrorIs(t, err, fs.ErrNotExist, p.String())
			}
		}},
		{"read a directory fails", func(t *testing.T, root Path) {
			write(t, root, map[string]string{"d/f": "x"})
			_, err := root.Join("d").ReadFile()
			assert.Error(t, err)
		}},
		{"ReadDir lists sorted files and directories", func(t *testing.T, root Path) {
			write(t, root, map[string]string{"b": "", "a": "", "c/x": "", "B": "", "c/d/y": ""})
			children, err := root.ReadDir()
			require.NoError(t, err)
			assert.Equal(t, []string{"B", "a", "b", "c"}, names(children))
			assert.Equal(t, root.Join("c").String(), children[3].String())
			sub, err := children[3].ReadDir()
			require.NoError(t, err)
			assert.Equal(t, []string{"d", "x"}, names(sub))
		}},
		{"ReadDir of an emptied directory is empty", func(t *testing.T, root Path) {
			write(t, root, map[string]string{"d/f": ""})
			require.NoError(t, root.Join("d/f").Remove())
			children, err := root.Join("d").ReadDir()
			require.NoError(t, err)
			assert.Empty(t, children)
		}},
		{"ReadDir missing is ErrNotExist", func(t *testing.T, root Path) {
			_, err := root.ReadDir()
			assert.ErrorIs(t, err, fs.ErrNotExist)
		}},
		{"ReadDir of a file fails but not as missing", func(t *testing.T, root Path) {
			write(t, root, map[string]string{"f": ""})
			_, err := root.Join("f").ReadDir()
			require.Error(t, err)
			assert.NotErrorIs(t, err, fs.ErrNotExist)
		}},
		{"Exists", func(t *testing.T, root Path) {
			write(t, root, map[string]string{"d/f": ""})
			assert.True(t, exists(t, root.Join("d/f")), "file")
			assert.True(t, exists(t, root.Join("d")), "directory")
			assert.False(t, exists(t, root.Join("d/missing")), "missing file")
			assert.False(t, exists(t, root.Join("nodir/missing")), "missing parent")
		}},
		{"Remove deletes only the file", func(t *testing.T, root Path) {
			write(t, root, map[string]string{"d/f": "", "d/g": "keep"})
			require.NoError(t, root.Join("d/f").Remove())
			assert.False(t, exists(t, root.Join("d/f")))
			_, err := root.Join("d/f").ReadFile()
			assert.ErrorIs(t, err, fs.ErrNotExist)
			assert.Equal(t, "keep", read(t, root.Join("d/g")))
		}},
		{"Remove missing is ErrNotExist", func(t *testing.T, root Path) {
			assert.ErrorIs(t, root.Join("missing").Remove(), fs.ErrNotExist)
		}},
		{"Remove of a non-empty directory fails and keeps it", func(t *testing.T, root Path) {
			write(t, root, map[string]string{"d/f": "x"})
			assert.Error(t, root.Join("d").Remove())
			assert.Equal(t, "x", read(t, root.Join("d/f")))
		}},
		{"Remove of an empty directory", func(t *testing.T, root Path) {
			write(t, root, map[string]string{"d/f": ""})
			require.NoError(t, root.Join("d/f").Remove())
			require.NoError(t, root.Join("d").Remove())
			assert.False(t, exists(t, root.Join("d")))
		}},
		{"RemoveAll deletes a tree and nothing else", func(t *testing.T, root Path) {
			write(t, root, map[string]string{"c1/config": "", "c1/ig/nodes": "", "c2/config": "keep"})
			require.NoError(t, root.Join("c1").RemoveAll())
			assert.False(t, exists(t, root.Join("c1")))
			children, err := root.ReadDir()
			require.NoError(t, err)
			assert.Equal(t, []string{"c2"}, names(children))
			assert.Equal(t, "keep", read(t, root.Join("c2/config")))
		}},
		{"RemoveAll of the root", func(t *testing.T, root Path) {
			write(t, root, map[string]string{"c1/config": ""})
			require.NoError(t, root.RemoveAll())
			assert.False(t, exists(t, root))
		}},
		{"RemoveAll missing is not an error", func(t *testing.T, root Path) {
			assert.NoError(t, root.Join("missing").RemoveAll())
		}},
		{"write below a file fails and keeps the file", func(t *testing.T, root Path) {
			write(t, root, map[string]string{"f": "x"})
			assert.Error(t, root.Join("f/child").WriteFile([]byte("y")))
			assert.Equal(t, "x", read(t, root.Join("f")))
		}},
		{"write onto a directory fails and keeps it", func(t *testing.T, root Path) {
			write(t, root, map[string]string{"d/f": "x"})
			assert.Error(t, root.Join("d").WriteFile([]byte("y")))
			assert.Equal(t, "x", read(t, root.Join("d/f")))
		}},
		{"paths below a file fail, not missing", func(t *testing.T, root Path) {
			write(t, root, map[string]string{"f": "x"})
			p := root.Join("f/child")
			_, err := p.Exists()
			assert.Error(t, err, "Exists")
			_, err = p.ReadFile()
			assert.Error(t, err, "ReadFile")
			assert.NotErrorIs(t, err, fs.ErrNotExist, "ReadFile")
			assert.Error(t, p.RemoveAll(), "RemoveAll")
		}},
	}
	for _, b := range backends {
		for _, tt := range tests {
			t.Run(b.name+"/"+tt.name, func(t *testing.T) { tt.run(t, b.root(t)) })
		}
	}
}
