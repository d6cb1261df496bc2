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
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestNoOperationFollowsALinkOutOfItsRoot puts a symlink at every position of a path below a root
// (each folder on the way and the file itself), pointing outside the root (absolute and relative)
// and to another folder inside it, and runs every operation through that path. Writes and deletes
// must never pass through any link; reads may follow a link only where it stays inside the root.
// The targets must be byte for byte as they were.
func TestNoOperationFollowsALinkOutOfItsRoot(t *testing.T) {
	const rel = "cluster/igconfig/node/nodes/file"
	parts := strings.Split(rel, "/")
	type op struct {
		name  string
		write bool
		run   func(p Path) error
	}
	ops := []op{
		{"WriteFile", true, func(p Path) error { return p.WriteFile([]byte("written")) }},
		{"Remove", true, func(p Path) error { return p.Remove() }},
		{"RemoveAll", true, func(p Path) error { return p.RemoveAll() }},
		{"RemoveDir", true, func(p Path) error { return p.Dir().RemoveDir() }},
		{"Lock", true, func(p Path) error {
			unlock, err := p.Lock()
			if err == nil {
				unlock()
			}
			return err
		}},
		{"ReadFile", false, func(p Path) error { _, err := p.ReadFile(); return err }},
		{"ReadDir", false, func(p Path) error { _, err := p.Dir().ReadDir(); return err }},
		{"Exists", false, func(p Path) error { _, err := p.Exists(); return err }},
	}
	targets := []struct {
		name    string
		outside bool
		link    func(top, root, at string) string // the link's text
	}{
		{"absolute outside", true, func(top, _, _ string) string { return filepath.Join(top, "victim") }},
		{"relative outside", true, func(top, _, at string) string {
			r, err := filepath.Rel(filepath.Dir(at), filepath.Join(top, "victim"))
			if err != nil {
				panic(err)
			}
			return r
		}},
		{"relative inside", false, func(_, root, at string) string {
			r, err := filepath.Rel(filepath.Dir(at), filepath.Join(root, "other"))
			if err != nil {
				panic(err)
			}
			return r
		}},
	}
	for i := range parts {
		position := strings.Join(parts[:i+1], "/")
		for _, target := range targets {
			for _, o := range ops {
				t.Run(position+"/"+target.name+"/"+o.name, func(t *testing.T) {
					top := t.TempDir()
					root := filepath.Join(top, "store")
					// The link's targets: a folder outside the root and one inside it, each
					// holding what the path below the link would name, plus a file of its own.
					victims := map[string]string{}
					for _, dir := range []string{filepath.Join(top, "victim"), filepath.Join(root, "other")} {
						seed(t, dir, strings.Join(parts[i+1:], "/"), victims)
					}
					at := filepath.Join(root, filepath.FromSlash(position))
					require.NoError(t, os.MkdirAll(filepath.Dir(at), 0o755))
					require.NoError(t, os.Symlink(target.link(top, root, at), at))

					p := localPath(root).Join(rel)
					err := o.run(p)

					for file, content := range victims {
						got, readErr := os.ReadFile(file)
						require.NoError(t, readErr, "%s must survive %s", file, o.name)
						assert.Equal(t, content, string(got), "%s must be unchanged by %s", file, o.name)
					}
					last := i == len(parts)-1
					switch {
					case o.write && last && (o.name == "WriteFile" || o.name == "Remove" || o.name == "RemoveAll"):
						// The link itself is replaced or removed; its target is untouched (above).
						require.NoError(t, err)
						info, statErr := os.Lstat(at)
						if o.name == "WriteFile" {
							require.NoError(t, statErr)
							assert.True(t, info.Mode().IsRegular(), "the link is replaced by a file")
						} else {
							assert.ErrorIs(t, statErr, fs.ErrNotExist, "the link is removed")
						}
					case o.write && last:
						// RemoveDir and Lock do not look at the last part as a folder or follow it.
						if o.name == "RemoveDir" {
							assert.Error(t, err, "the folder holds the link")
						}
					case o.write:
						assert.ErrorIs(t, err, ErrSymlink)
					case target.outside && !(o.name == "ReadDir" && last):
						assert.ErrorIs(t, err, ErrOutsideBase)
					}
				})
			}
		}
	}
}

// seed makes dir/rel a file (or, for rel "", dir a folder) and one more file in every folder on
// the way, recording their contents in files.
func seed(t *testing.T, dir, rel string, files map[string]string) {
	t.Helper()
	require.NoError(t, os.MkdirAll(dir, 0o755))
	cur := dir
	for _, part := range strings.Split(rel, "/") {
		own := filepath.Join(cur, "theirs.pem")
		require.NoError(t, os.WriteFile(own, []byte("theirs in "+cur), 0o600))
		files[own] = "theirs in " + cur
		if part == "" {
			return
		}
		next := filepath.Join(cur, part)
		if next == filepath.Join(dir, filepath.FromSlash(rel)) {
			require.NoError(t, os.WriteFile(next, []byte("their "+part), 0o600))
			files[next] = "their " + part
			return
		}
		require.NoError(t, os.MkdirAll(next, 0o755))
		cur = next
	}
}
