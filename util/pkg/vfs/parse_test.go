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
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParsePathAccepted(t *testing.T) {
	wd, err := os.Getwd()
	require.NoError(t, err)
	tests := []struct {
		in, want string
		mem      bool // result must live in the MemFS, not on disk
	}{
		{in: "file:///srv/kops", want: "file:///srv/kops"},
		{in: "FILE:///srv/kops/", want: "file:///srv/kops"},
		{in: "file:///srv//a/../kops", want: "file:///srv/kops"},
		{in: "/srv/kops", want: "file:///srv/kops"},
		{in: "/srv/kops/", want: "file:///srv/kops"},
		{in: "state", want: "file://" + filepath.Join(wd, "state")},
		{in: "./a/../state", want: "file://" + filepath.Join(wd, "state")},
		{in: "dir/not a scheme://x", want: "file://" + filepath.Join(wd, "dir/not a scheme:/x")},
		{in: "memfs://test", want: "memfs://test", mem: true},
		{in: "memfs://test/", want: "memfs://test", mem: true},
		{in: "memfs://test/a/b", want: "memfs://test/a/b", mem: true},
		{in: "memfs://test/../../a", want: "memfs://test/a", mem: true},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			mem := &MemFS{}
			p, err := ParsePath(tt.in, mem)
			require.NoError(t, err)
			assert.Equal(t, tt.want, p.String())

			again, err := ParsePath(p.String(), mem)
			require.NoError(t, err)
			assert.Equal(t, p.String(), again.String(), "String must parse back to the same path")

			if tt.mem {
				require.NoError(t, p.Join("probe").WriteFile([]byte("x")))
				writes, _ := mem.Stats()
				assert.Equal(t, 1, writes, "write must go to the given MemFS")
			} else {
				assert.IsType(t, fsPath{}, p)
			}
		})
	}
}

func TestParsePathRejected(t *testing.T) {
	unsupported := func(in, scheme string) string {
		return `state store "` + in + `" uses scheme "` + scheme +
			`", which is not supported by this build; use s3://bucket/prefix, file:///path or a local directory`
	}
	tests := []struct {
		in      string
		nilMem  bool
		wantErr string
	}{
		{in: "", wantErr: "no state store given: set --state or KOPS_STATE_STORE"},
		{in: "s3://bucket", wantErr: `state store "s3://bucket": s3:// needs S3 settings, which this command does not read (kops reads them from its environment, see docs/state-store.md)`},
		{in: "S3://bucket/path", wantErr: `state store "S3://bucket/path": s3:// needs S3 settings, which this command does not read (kops reads them from its environment, see docs/state-store.md)`},
		{in: "gs://bucket/path", wantErr: unsupported("gs://bucket/path", "gs")},
		{in: "azureblob://container", wantErr: unsupported("azureblob://container", "azureblob")},
		{in: "swift://container", wantErr: unsupported("swift://container", "swift")},
		{in: "do://space", wantErr: unsupported("do://space", "do")},
		{in: "scw://bucket", wantErr: unsupported("scw://bucket", "scw")},
		{in: "http://example.com/state", wantErr: unsupported("http://example.com/state", "http")},
		{in: "https://example.com/state", wantErr: unsupported("https://example.com/state", "https")},
		{in: "file://srv/kops", wantErr: `state store "file://srv/kops": file URLs need an absolute path, e.g. file:///srv/kops-state`},
		{in: "memfs://", wantErr: `state store "memfs://": memfs URLs need a store name, e.g. memfs://test`},
		{in: "memfs:///a", wantErr: `state store "memfs:///a": memfs URLs need a store name, e.g. memfs://test`},
		{in: "memfs://test", nilMem: true, wantErr: `state store "memfs://test": memfs:// is only available to tests that supply an in-memory store`},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			mem := &MemFS{}
			if tt.nilMem {
				mem = nil
			}
			p, err := ParsePath(tt.in, mem)
			assert.EqualError(t, err, tt.wantErr)
			assert.Nil(t, p)
		})
	}
}
