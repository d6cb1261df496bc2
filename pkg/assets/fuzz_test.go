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

package assets

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"k8s.io/kops/pkg/apis/kops"
	"k8s.io/kops/pkg/imageref"
	"k8s.io/kops/util/pkg/allocbound"
)

// FuzzRemapImage: image references come from channels, package manifests and the cluster spec,
// locations from spec.assets. Parsing must not panic and must work in proportion to the input;
// a reference written back from its parsed parts parses to the same parts; and an image remapped
// to an accepted location is a valid reference under that location, with the same tag and digest,
// that remaps to itself and is pulled from the location's registry. Below a proxy, an image whose
// registry cannot be a path component (a port, an IPv6 address) is refused; otherwise the only
// refusal is a remapped path longer than the grammar's 255 characters. Parsing is
// distribution/reference's (package imageref), so this also holds the library to the allocation
// bound.
func FuzzRemapImage(f *testing.F) {
	for _, s := range []struct {
		location string
		proxy    bool
		image    string
	}{
		{"registry.example.com/mirror", false, "registry.k8s.io/coredns/coredns:v1.12.4"},
		{"proxy.example.com:5000/", true, "busybox"},
		{"registry.example.com", false, "quay.io/cilium/cilium:v1.18.0@" + sha},
		{"[::1]:5000", true, "index.docker.io/library/app__x-y.z:1_0"},
		{"https://r.example.com", false, "Registry.k8s.io/Coredns:latest"},
		{"mirror", false, "busybox"},
		{"registry.example.com", false, "busybox@sha256:0123456789abcdef0123456789abcdef"},
		{"registry.example.com/" + strings.Repeat("m", 200), false, "registry.k8s.io/" + strings.Repeat("a", 100)},
	} {
		f.Add(s.location, s.proxy, s.image)
	}
	f.Fuzz(func(t *testing.T, location string, proxy bool, image string) {
		var ref imageref.Image
		var err error
		allocbound.Check(t, len(image), func() { ref, err = imageref.Parse(image) })
		if err != nil {
			return
		}
		written := ref.String()
		again, err := imageref.Parse(written)
		require.NoError(t, err, "parsing %q, written from %q", written, image)
		assert.Equal(t, ref, again, "%q written as %q", image, written)

		spec := &kops.AssetsSpec{ContainerRegistry: location}
		if proxy {
			spec = &kops.AssetsSpec{ContainerProxy: location}
		}
		var r *Remapper
		allocbound.Check(t, len(location), func() { r, err = NewRemapper(spec) })
		if err != nil || location == "" {
			return
		}
		out, err := r.RemapImage(image)
		if proxy && strings.ContainsAny(ref.Registry, ":[") {
			require.Error(t, err, "registry %q cannot be a path component below a proxy", ref.Registry)
			return
		}
		if err != nil {
			// The only other refusal: the longer remapped path passes the grammar's limit.
			require.ErrorContains(t, err, "must not be more than 255 characters")
			return
		}
		prefix := strings.TrimSuffix(location, "/") + "/"
		assert.True(t, strings.HasPrefix(out, prefix), "%q remapped to %q, outside %q", image, out, location)
		remapped, err := imageref.Parse(out)
		require.NoError(t, err, "%q remapped to %q, which is not a valid reference", image, out)
		host, _, _ := strings.Cut(location, "/")
		assert.Equal(t, host, remapped.Registry, "%q remapped to %q is pulled from another registry", image, out)
		assert.Equal(t, ref.Tag, remapped.Tag)
		assert.Equal(t, ref.Digest, remapped.Digest)
		twice, err := r.RemapImage(out)
		require.NoError(t, err)
		assert.Equal(t, out, twice, "remapping must be idempotent")
	})
}
