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

package channels

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"k8s.io/kops/util/pkg/vfs"
)

// testChannel offers "op" in overlapping ranges, "bounded" for one minor only, and "coredns"
// with an image and no manifest.
const testChannel = `apiVersion: kops.k8s.io/v1alpha2
kind: Channel
metadata:
  name: test
spec:
  packages:
  - name: op
    version: 0.9.0
  - name: op
    version: 1.0.0
    kubernetesVersion: ">=1.28.0 <1.31.0"
  - name: op
    version: 1.1.0
    kubernetesVersion: ">=1.30.0"
  - name: op
    version: 2.0.0-alpha.1
    kubernetesVersion: ">=1.34.0"
  - name: bounded
    version: 1.0.0
    kubernetesVersion: ">=1.30.0 <1.31.0"
  - name: coredns
    version: 1.12.4
    image: registry.k8s.io/coredns/coredns:v1.12.4
`

// writeFiles writes files (relative path → content) below dir and returns the file:// URL of
// dir/channel.yaml.
func writeFiles(t *testing.T, dir string, files map[string]string) string {
	t.Helper()
	for rel, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
	}
	return "file://" + filepath.ToSlash(filepath.Join(dir, "channel.yaml"))
}

func TestLoad(t *testing.T) {
	fileURL := writeFiles(t, t.TempDir(), map[string]string{"channel.yaml": testChannel})
	mem := &vfs.MemFS{}
	memChannel, err := vfs.ParsePath("memfs://test/channels/channel.yaml", mem)
	require.NoError(t, err)
	require.NoError(t, memChannel.WriteFile([]byte(testChannel)))

	cases := []struct {
		location, wantName, wantMetadataName string
	}{
		{"stable", "stable", "stable"},
		{"alpha", "alpha", "alpha"},
		{"none", "none", "stable"}, // the embedded defaults are the stable content
		{fileURL, fileURL, "test"},
		{"memfs://test/channels/channel.yaml", "memfs://test/channels/channel.yaml", "test"},
	}
	for _, tc := range cases {
		t.Run(tc.location, func(t *testing.T) {
			l, err := Load(tc.location, vfs.NewContext(mem))
			require.NoError(t, err)
			assert.Equal(t, tc.wantName, l.Name())
			assert.Equal(t, tc.wantMetadataName, l.Channel().Metadata.Name)
		})
	}

	stable, err := Load(Stable, nil)
	require.NoError(t, err)
	none, err := Load(None, nil)
	require.NoError(t, err)
	assert.Equal(t, stable.Channel(), none.Channel(), "none is the stable content")
}

func TestLoadRejects(t *testing.T) {
	dir := t.TempDir()
	malformed := writeFiles(t, dir, map[string]string{"channel.yaml": "kind: Channel\nspec:\n  packages:\n  - name: a\n"})
	cases := map[string][]string{ // location → substrings of the error
		"":                          {"no channel given", "stable, alpha, none"},
		"beta":                      {`channel "beta" is not a known channel`, "stable, alpha, none or file://"},
		"Stable":                    {`channel "Stable" is not a known channel`},
		"/srv/channel.yaml":         {`channel "/srv/channel.yaml" is not a known channel`},
		"https://example.com/c.yml": {`channel "https://example.com/c.yml"`, `scheme "https" is not supported`},
		"s3://bucket/channel.yaml":  {`scheme "s3" is not supported`},
		"file://relative/c.yaml":    {"reading channel file://" + filepath.ToSlash(mustGetwd(t)) + "/relative/c.yaml", "no such file"},
		"file://":                   {"names no file"},
		"memfs://test/c.yaml":       {"memfs:// is only available to tests"},
		"memfs:///c.yaml":           {"memfs URLs need a store name"},
		"file://" + filepath.ToSlash(filepath.Join(dir, "missing.yaml")): {"reading channel", "no such file"},
		malformed: {malformed, "apiVersion: Invalid value", "spec.packages[0].version: Required value"},
	}
	for location, want := range cases {
		t.Run(location, func(t *testing.T) {
			_, err := Load(location, nil)
			require.Error(t, err)
			for _, w := range want {
				assert.Contains(t, err.Error(), w)
			}
			assert.NotContains(t, err.Error(), "state store", "a channel is not a state store")
		})
	}
}

func mustGetwd(t *testing.T) string {
	wd, err := os.Getwd()
	require.NoError(t, err)
	return wd
}

func TestPackage(t *testing.T) {
	dir := t.TempDir()
	url := writeFiles(t, dir, map[string]string{
		"channel.yaml":                    testChannel,
		"packages/op/1.0.0/manifest.yaml": "op 1.0.0\n",
		"packages/op/1.1.0/manifest.yaml": "op 1.1.0\n",
	})
	// A manifest that exists but cannot be read must fail rather than read as "no manifest".
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "packages", "op", "0.9.0", "manifest.yaml"), 0o755))
	l, err := Load(url, nil)
	require.NoError(t, err)

	cases := []struct {
		pkg, kubernetes string
		want            Package
	}{
		{"op", "1.29.0", Package{Name: "op", Version: "1.0.0", Manifest: []byte("op 1.0.0\n")}},
		{"op", "1.30.0", Package{Name: "op", Version: "1.1.0", Manifest: []byte("op 1.1.0\n")}}, // highest of two
		{"op", "v1.33.2", Package{Name: "op", Version: "1.1.0", Manifest: []byte("op 1.1.0\n")}},
		{"op", "1.35.4", Package{Name: "op", Version: "2.0.0-alpha.1"}}, // no manifest file → nil
		{"bounded", "1.30.7", Package{Name: "bounded", Version: "1.0.0"}},
		{"coredns", "1.35.4", Package{Name: "coredns", Version: "1.12.4", Image: "registry.k8s.io/coredns/coredns:v1.12.4"}},
	}
	for _, tc := range cases {
		t.Run(tc.pkg+"@"+tc.kubernetes, func(t *testing.T) {
			got, err := l.Package(tc.pkg, tc.kubernetes)
			require.NoError(t, err)
			tc.want.Channel = url
			assert.Equal(t, &tc.want, got)
		})
	}

	t.Run("unreadable manifest is an error", func(t *testing.T) {
		_, err := l.Package("op", "1.27.0") // only 0.9.0, whose manifest.yaml is a directory
		require.Error(t, err)
		assert.Contains(t, err.Error(), `package "op" 0.9.0: reading manifest`)
	})

	errCases := map[string]struct{ pkg, kubernetes, want string }{
		"no version in range": {"bounded", "1.29.0",
			`channel "` + url + `" has no version of package "bounded" for Kubernetes 1.29.0; it offers 1.0.0 for Kubernetes >=1.30.0 <1.31.0`},
		"unknown package": {"missing", "1.35.4",
			`channel "` + url + `" has no version of package "missing" for Kubernetes 1.35.4; the channel does not list the package`},
	}
	for name, tc := range errCases {
		t.Run(name, func(t *testing.T) {
			_, err := l.Package(tc.pkg, tc.kubernetes)
			require.EqualError(t, err, tc.want)
			var noVersion *NoPackageVersionError
			require.True(t, errors.As(err, &noVersion))
			assert.Equal(t, tc.pkg, noVersion.Package)
		})
	}

	for _, bad := range []string{"", "1.35", "latest"} {
		_, err := l.Package("op", bad)
		require.Error(t, err, bad)
		assert.Contains(t, err.Error(), "invalid Kubernetes version")
	}
}

func TestPackageFromMemFS(t *testing.T) {
	mem := &vfs.MemFS{}
	for rel, content := range map[string]string{
		"c/channel.yaml":                    testChannel,
		"c/packages/op/1.1.0/manifest.yaml": "op 1.1.0\n",
	} {
		p, err := vfs.ParsePath("memfs://store/"+rel, mem)
		require.NoError(t, err)
		require.NoError(t, p.WriteFile([]byte(content)))
	}
	l, err := Load("memfs://store/c/channel.yaml", vfs.NewContext(mem))
	require.NoError(t, err)
	got, err := l.Package("op", "1.31.0")
	require.NoError(t, err)
	assert.Equal(t, "op 1.1.0\n", string(got.Manifest))
}

func TestEmbeddedPackageOutOfRange(t *testing.T) {
	l, err := Load(Stable, nil)
	require.NoError(t, err)
	_, err = l.Package("operator.coredns.addons.x-k8s.io", "1.29.0")
	require.ErrorContains(t, err,
		`channel "stable" has no version of package "operator.coredns.addons.x-k8s.io" for Kubernetes 1.29.0`)
}
