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
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"k8s.io/kops/util/pkg/vfs"
)

func TestResolve(t *testing.T) {
	cases := []struct{ location, workDir, want string }{
		{"stable", "/w", "stable"},
		{"alpha", "/w", "alpha"},
		{"none", "/w", "none"},
		{"file://channels/stable", "/w", "file:///w/channels/stable"},
		{"file://./channels/../channels/stable", "/w", "file:///w/channels/stable"},
		{"file://../up/c", "/w/sub", "file:///w/up/c"},
		{"file:///abs/c", "/w", "file:///abs/c"},
		{"memfs://store/c", "/w", "memfs://store/c"},
	}
	for _, tc := range cases {
		t.Run(tc.location, func(t *testing.T) {
			got, err := Resolve(tc.location, tc.workDir)
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}

	errCases := map[string]struct{ location, workDir, want string }{
		"unknown name":      {"beta", "/w", `channel "beta" is not a known channel`},
		"network":           {"https://example.com/c", "/w", `scheme "https" is not supported`},
		"empty":             {"", "/w", "no channel given"},
		"empty file URL":    {"file://", "/w", "names no file"},
		"relative work dir": {"file://c", "w", "needs an absolute working directory"},
	}
	for name, tc := range errCases {
		t.Run(name, func(t *testing.T) {
			_, err := Resolve(tc.location, tc.workDir)
			require.ErrorContains(t, err, tc.want)
		})
	}
}

func TestVerify(t *testing.T) {
	const channel = "apiVersion: kops.k8s.io/v1alpha2\nkind: Channel\nmetadata:\n  name: c\nspec:\n  packages:\n  - name: op\n    version: 1.0.0\n  - name: coredns\n    version: 1.12.4\n"
	good := writeFiles(t, t.TempDir(), map[string]string{
		"channel.yaml":                    channel,
		"packages/op/1.0.0/manifest.yaml": "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: op\n",
	})
	for _, location := range []string{Stable, Alpha, None, good} {
		assert.NoError(t, Verify(location, nil), location)
	}

	cases := map[string]struct {
		manifest string
		want     string
	}{
		"not an object":   {"just: a map\n", "spec.packages[0] (op 1.0.0): packages/op/1.0.0/manifest.yaml: document 1: apiVersion and kind are required"},
		"second document": {"apiVersion: v1\nkind: Namespace\n---\nkind: Service\n", "document 2: apiVersion and kind are required"},
		"empty":           {"# nothing\n", "the manifest holds no objects"},
		"not YAML":        {"apiVersion: v1\nkind: [\n", "packages/op/1.0.0/manifest.yaml: document 1"},
		// kops reads the objects case-sensitively, and a kind must be a string.
		"field name in another case": {"ApiVersion: v1\nkind: Namespace\n", "document 1: apiVersion and kind are required"},
		"kind not a string":          {"apiVersion: v1\nkind: 1\n", "document 1: apiVersion and kind are required"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			url := writeFiles(t, t.TempDir(), map[string]string{
				"channel.yaml":                    channel,
				"packages/op/1.0.0/manifest.yaml": tc.manifest,
			})
			err := Verify(url, nil)
			require.Error(t, err)
			assert.Contains(t, err.Error(), `channel "`+url+`"`)
			assert.Contains(t, err.Error(), tc.want)
		})
	}

	t.Run("unreadable manifest", func(t *testing.T) {
		dir := t.TempDir()
		url := writeFiles(t, dir, map[string]string{"channel.yaml": channel})
		require.NoError(t, os.MkdirAll(filepath.Join(dir, "packages", "op", "1.0.0", "manifest.yaml"), 0o755))
		require.ErrorContains(t, Verify(url, nil), "directory")
	})

	t.Run("memfs", func(t *testing.T) {
		mem := &vfs.MemFS{}
		p, err := vfs.ParsePath("memfs://store/c/channel.yaml", mem)
		require.NoError(t, err)
		require.NoError(t, p.WriteFile([]byte(channel)))
		assert.NoError(t, Verify("memfs://store/c/channel.yaml", vfs.NewContext(mem)))
	})
}

// The channel files sit in the repository's channels/ directory, where the try-it flow's
// file://channels/stable finds them, and they are the very files the binary embeds.
func TestRepositoryChannelsAreTheEmbeddedOnes(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", "..", ".."))
	require.NoError(t, err)
	for _, name := range []string{Stable, Alpha} {
		fromFile, err := Load("file://"+filepath.ToSlash(filepath.Join(root, "channels", name)), nil)
		require.NoError(t, err)
		embedded, err := Load(name, nil)
		require.NoError(t, err)
		assert.Equal(t, embedded.Channel(), fromFile.Channel())
		for _, p := range embedded.Channel().Spec.Packages {
			want, err := embedded.Package(p.Name, "1.35.4")
			if err != nil {
				continue // not offered for this version
			}
			got, err := fromFile.Package(p.Name, "1.35.4")
			require.NoError(t, err)
			assert.Equal(t, fromFile.Name(), got.Channel, "a package names the channel it came from")
			got.Channel = want.Channel
			assert.Equal(t, want, got)
		}
		require.NoError(t, Verify("file://"+filepath.ToSlash(filepath.Join(root, "channels", name)), nil))
	}
}
