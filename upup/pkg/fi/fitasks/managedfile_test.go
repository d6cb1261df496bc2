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

package fitasks

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"k8s.io/kops/upup/pkg/fi"
	"k8s.io/kops/util/pkg/vfs"
)

// memContext returns a context whose ConfigBase is an in-memory store
// holding files (location -> content).
func memContext(t testing.TB, files map[string]string) (*fi.Context, *vfs.MemFS) {
	t.Helper()
	mem := &vfs.MemFS{}
	base, err := vfs.ParsePath("memfs://t/cluster", mem)
	require.NoError(t, err)
	for loc, content := range files {
		require.NoError(t, base.Join(loc).WriteFile([]byte(content)))
	}
	return &fi.Context{ClusterName: "cluster", ConfigBase: base}, mem
}

func TestManagedFilePlan(t *testing.T) {
	tests := []struct {
		name     string
		existing map[string]string
		file     ManagedFile
		want     *fi.Change
		wantErr  string
	}{
		{
			name: "missing file is created",
			file: ManagedFile{Name: "f", Location: "addons/a.yaml", Contents: []byte("abc")},
			want: &fi.Change{Action: fi.ActionCreate, Fields: []fi.FieldChange{
				{Name: "Location", New: "addons/a.yaml"},
				{Name: "Contents", New: "3 bytes, sha256 ba7816bf8f01"},
			}},
		},
		{
			name:     "same bytes need nothing",
			existing: map[string]string{"addons/a.yaml": "abc"},
			file:     ManagedFile{Name: "f", Location: "addons/a.yaml", Contents: []byte("abc")},
			want:     &fi.Change{Action: fi.ActionNone},
		},
		{
			name:     "different bytes are modified with a diff",
			existing: map[string]string{"a.yaml": "1\n2\n3\n4\n5\n6\n7\n8\n9\n"},
			file:     ManagedFile{Name: "f", Location: "a.yaml", Contents: []byte("1\n2\n3\n4\nfive\n6\n7\n8\n9\n")},
			want: &fi.Change{
				Action: fi.ActionModify,
				Fields: []fi.FieldChange{{Name: "Contents", Old: "18 bytes, sha256 90cdaf13f564", New: "21 bytes, sha256 0f36174a7431"}},
				Diff: "--- a.yaml (current)\n+++ a.yaml (desired)\n@@ -2,7 +2,7 @@\n" +
					" 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8\n",
			},
		},
		{
			name:     "added trailing newline shows on the last line",
			existing: map[string]string{"a": "x\ny"},
			file:     ManagedFile{Name: "f", Location: "a", Contents: []byte("x\ny\n")},
			want: &fi.Change{
				Action: fi.ActionModify,
				Fields: []fi.FieldChange{{Name: "Contents", Old: "3 bytes, sha256 9ab9de25768a", New: "4 bytes, sha256 09834d488008"}},
				Diff:   "--- a (current)\n+++ a (desired)\n@@ -1,2 +1,2 @@\n x\n-y\n\\ No newline at end of file\n+y\n",
			},
		},
		{
			name:     "binary content gets no line diff",
			existing: map[string]string{"bin": "\x00\x01"},
			file:     ManagedFile{Name: "f", Location: "bin", Contents: []byte("\x00\x02")},
			want: &fi.Change{
				Action: fi.ActionModify,
				Fields: []fi.FieldChange{{Name: "Contents", Old: "2 bytes, sha256 b413f47d13ee", New: "2 bytes, sha256 fcf0a6c700dd"}},
			},
		},
		{
			name:     "unreadable location is an error",
			existing: map[string]string{"addons": "a file, not a directory"},
			file:     ManagedFile{Name: "f", Location: "addons/a.yaml"},
			wantErr:  "write memfs://t/cluster/addons/a.yaml: not a directory",
		},
		{name: "absolute location", file: ManagedFile{Name: "f", Location: "/etc/passwd"}, wantErr: "must be a clean relative path"},
		{name: "escaping location", file: ManagedFile{Name: "f", Location: "../other/config"}, wantErr: "must be a clean relative path"},
		{name: "unclean location", file: ManagedFile{Name: "f", Location: "a//b"}, wantErr: "must be a clean relative path"},
		{name: "empty location", file: ManagedFile{Name: "f"}, wantErr: "must be a clean relative path"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, _ := memContext(t, tt.existing)
			got, err := tt.file.Plan(context.Background(), c)
			if tt.wantErr != "" {
				assert.ErrorContains(t, err, tt.wantErr)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestManagedFileNeedsConfigBase(t *testing.T) {
	f := &ManagedFile{Name: "f", Location: "a"}
	_, err := f.Plan(context.Background(), &fi.Context{})
	assert.ErrorContains(t, err, "no ConfigBase")
}

func TestManagedFileKeyAndDependencies(t *testing.T) {
	dep := fi.TaskKey{Kind: ManagedFileKind, Name: "other"}
	f := &ManagedFile{Name: "addons/bootstrap-channel.yaml", Location: "addons/bootstrap-channel.yaml", Deps: []fi.TaskKey{dep}}
	assert.Equal(t, "ManagedFile/addons/bootstrap-channel.yaml", f.Key().String())
	deps := f.Dependencies()
	assert.Equal(t, []fi.TaskKey{dep}, deps)
	deps[0].Name = "mutated"
	assert.Equal(t, "other", f.Deps[0].Name, "callers cannot change the task through Dependencies")
}

func TestManagedFileDuplicateMessage(t *testing.T) {
	var m fi.ModelBuilderContext
	require.NoError(t, m.AddTask(&ManagedFile{Name: "x", Location: "x", Contents: []byte("one")}))
	require.NoError(t, m.AddTask(&ManagedFile{Name: "x", Location: "x", Contents: []byte("one")}), "identical duplicate")
	err := m.AddTask(&ManagedFile{Name: "x", Location: "x", Contents: []byte("two")})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "duplicate task ManagedFile/x")
	assert.Contains(t, err.Error(), summarize([]byte("one")))
	assert.Contains(t, err.Error(), summarize([]byte("two")))
}

func TestManagedFileWritesLocalFileAtomically(t *testing.T) {
	dir := t.TempDir()
	base, err := vfs.ParsePath("file://"+filepath.ToSlash(dir), nil)
	require.NoError(t, err)
	c := &fi.Context{ConfigBase: base}
	f := &ManagedFile{Name: "f", Location: "addons/a.yaml", Contents: []byte("hello\n")}

	graph, err := fi.BuildGraph([]fi.Task{f})
	require.NoError(t, err)
	_, err = fi.Run(context.Background(), graph, c, &fi.DirectTarget{}, fi.RunOptions{})
	require.NoError(t, err)

	data, err := os.ReadFile(filepath.Join(dir, "addons", "a.yaml"))
	require.NoError(t, err)
	assert.Equal(t, "hello\n", string(data))
	entries, err := os.ReadDir(filepath.Join(dir, "addons"))
	require.NoError(t, err)
	assert.Len(t, entries, 1, "no temp files left behind")
}

func TestManagedFileRenderDirectRejectsDelete(t *testing.T) {
	c, mem := memContext(t, nil)
	f := &ManagedFile{Name: "f", Location: "a"}
	err := f.RenderDirect(context.Background(), c, &fi.Change{Action: fi.ActionDelete})
	assert.ErrorContains(t, err, "action delete is not supported")
	writes, removes := mem.Stats()
	assert.Zero(t, writes+removes)
}

func TestSplitLines(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"a\n", []string{"a\n"}},
		{"a\nb", []string{"a\n", "b\n\\ No newline at end of file\n"}},
		{"\n\n", []string{"\n", "\n"}},
	}
	for _, tt := range tests {
		t.Run(strings.ReplaceAll(tt.in, "\n", `\n`), func(t *testing.T) {
			assert.Equal(t, tt.want, splitLines(tt.in))
		})
	}
}
