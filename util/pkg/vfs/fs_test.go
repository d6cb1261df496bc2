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
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// failingReader yields some bytes and then an error, like a stream that
// breaks halfway through a write.
type failingReader struct {
	data string
	err  error
}

func (r *failingReader) Read(p []byte) (int, error) {
	if r.data == "" {
		return 0, r.err
	}
	n := copy(p, r.data)
	r.data = r.data[n:]
	return n, nil
}

// pathOf is the local Path of name: the last part of name below its folder as the root.
func pathOf(name string) fsPath {
	return fsPath{root: filepath.Dir(name), rel: filepath.Base(name)}
}

func dirNames(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	return out
}

func TestWriteFileAtomicFailureKeepsOldContent(t *testing.T) {
	errBroken := errors.New("stream broke")
	tests := []struct {
		name  string
		setup func(t *testing.T, target string) // creates the previous state
		r     io.Reader
		want  error // nil: any error
		check func(t *testing.T, target string)
	}{
		{
			name:  "reader fails midway",
			setup: func(t *testing.T, target string) { require.NoError(t, os.WriteFile(target, []byte("old"), 0o644)) },
			r:     &failingReader{data: strings.Repeat("new", 10000), err: errBroken},
			want:  errBroken,
			check: func(t *testing.T, target string) {
				data, err := os.ReadFile(target)
				require.NoError(t, err)
				assert.Equal(t, "old", string(data))
			},
		},
		{
			name: "rename fails because target is a directory",
			setup: func(t *testing.T, target string) {
				require.NoError(t, os.MkdirAll(filepath.Join(target, "keep"), 0o755))
			},
			r: strings.NewReader("new"),
			check: func(t *testing.T, target string) {
				assert.Equal(t, []string{"keep"}, dirNames(t, target))
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			target := filepath.Join(dir, "config")
			tt.setup(t, target)

			d, err := os.OpenRoot(dir)
			require.NoError(t, err)
			defer func() { _ = d.Close() }()
			err = writeAtomic(d, "config", tt.r)
			require.Error(t, err)
			if tt.want != nil {
				assert.ErrorIs(t, err, tt.want)
			}
			tt.check(t, target)
			assert.Equal(t, []string{"config"}, dirNames(t, dir), "temp file must be removed")
		})
	}
}

func TestWriteFileAtomicModes(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("POSIX permissions")
	}
	dir := t.TempDir()
	target := filepath.Join(dir, "a", "b", "config")
	// An existing private file must still end up 0644.
	require.NoError(t, os.MkdirAll(filepath.Dir(target), 0o755))
	require.NoError(t, os.WriteFile(target, []byte("old"), 0o600))

	require.NoError(t, pathOf(target).WriteFile([]byte("new")))

	info, err := os.Stat(target)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o644), info.Mode().Perm())
	assert.Equal(t, []string{"config"}, dirNames(t, filepath.Dir(target)), "no temp file left")

	require.NoError(t, pathOf(filepath.Join(dir, "new", "config")).WriteFile(nil))
	info, err = os.Stat(filepath.Join(dir, "new"))
	require.NoError(t, err)
	assert.True(t, info.IsDir())
	assert.Zero(t, info.Mode().Perm()&^0o755, "created directories are at most 0755")
}

func TestReadDirHidesTempFiles(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "config"), nil, 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, ".other"), nil, 0o644))
	// What a crash between create and rename leaves behind.
	f, err := os.CreateTemp(dir, ".config"+tempInfix+"*")
	require.NoError(t, err)
	require.NoError(t, f.Close())

	children, err := pathOf(dir).ReadDir()
	require.NoError(t, err)
	assert.Equal(t, []string{".other", "config"}, names(children))
}
