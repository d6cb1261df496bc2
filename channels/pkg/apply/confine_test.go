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

package apply

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"k8s.io/kops/channels/pkg/api"
	"k8s.io/kops/util/pkg/vfs"
)

// TestReadChannelKeepsManifestsInTheChannelFolder: a manifest is read below the channel's folder;
// a symlink there that leaves the folder is refused, one that stays inside is read.
func TestReadChannelKeepsManifestsInTheChannelFolder(t *testing.T) {
	const manifest = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  namespace: kube-system\n"
	cases := []struct {
		name string
		link func(t *testing.T, dir, outside string) // makes dir/good/v1.yaml
		want error
	}{
		{"a link out of the folder", func(t *testing.T, dir, outside string) {
			require.NoError(t, os.Symlink(outside, filepath.Join(dir, "good", "v1.yaml")))
		}, vfs.ErrOutsideBase},
		{"a relative link out of the folder", func(t *testing.T, dir, outside string) {
			rel, err := filepath.Rel(filepath.Join(dir, "good"), outside)
			require.NoError(t, err)
			require.NoError(t, os.Symlink(rel, filepath.Join(dir, "good", "v1.yaml")))
		}, vfs.ErrOutsideBase},
		{"a folder linked out of the folder", func(t *testing.T, dir, outside string) {
			require.NoError(t, os.Remove(filepath.Join(dir, "good")))
			require.NoError(t, os.Symlink(filepath.Dir(outside), filepath.Join(dir, "good")))
		}, vfs.ErrOutsideBase},
		{"a link inside the folder", func(t *testing.T, dir, _ string) {
			require.NoError(t, os.WriteFile(filepath.Join(dir, "real.yaml"), []byte(manifest), 0o644))
			require.NoError(t, os.Symlink("../real.yaml", filepath.Join(dir, "good", "v1.yaml")))
		}, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			top := t.TempDir()
			outside := filepath.Join(top, "elsewhere", "v1.yaml")
			require.NoError(t, os.MkdirAll(filepath.Dir(outside), 0o755))
			require.NoError(t, os.WriteFile(outside, []byte(manifest), 0o644))
			dir := filepath.Join(top, "channel")
			require.NoError(t, os.MkdirAll(filepath.Join(dir, "good"), 0o755))
			tc.link(t, dir, outside)
			channel := api.NewAddons("bootstrap")
			channel.Spec.Addons = []api.AddonSpec{{Name: "good", ID: "v1", Manifest: "good/v1.yaml", ManifestHash: api.ManifestHash([]byte(manifest))}}
			data, err := channel.Encode()
			require.NoError(t, err)
			location := filepath.Join(dir, "bootstrap-channel.yaml")
			require.NoError(t, os.WriteFile(location, data, 0o644))

			ch, err := ReadChannel("file://"+location, vfs.NewContext(nil))
			if tc.want != nil {
				assert.ErrorContains(t, err, tc.want.Error())
				assert.ErrorContains(t, err, "good/v1.yaml")
				return
			}
			require.NoError(t, err)
			assert.Len(t, ch.Addons[0].Objects, 1)
		})
	}
}
