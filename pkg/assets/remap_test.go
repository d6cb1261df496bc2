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
)

const sha = "sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"

func TestRemapImage(t *testing.T) {
	mirror := &kops.AssetsSpec{ContainerRegistry: "registry.example.com/mirror"}
	proxy := &kops.AssetsSpec{ContainerProxy: "proxy.example.com:5000/"}
	tests := []struct {
		name   string
		assets *kops.AssetsSpec
		image  string
		want   string
	}{
		{"nil spec leaves image alone", nil, "busybox", "busybox"},
		{"empty spec leaves image alone", &kops.AssetsSpec{}, "registry.k8s.io/coredns/coredns:v1.12.4", "registry.k8s.io/coredns/coredns:v1.12.4"},

		{"mirror keeps repository path", mirror, "registry.k8s.io/coredns/coredns:v1.12.4", "registry.example.com/mirror/coredns/coredns:v1.12.4"},
		{"mirror of docker hub short name", mirror, "busybox", "registry.example.com/mirror/library/busybox"},
		{"mirror of docker hub user image", mirror, "calico/node:v3.31.0", "registry.example.com/mirror/calico/node:v3.31.0"},
		{"mirror of legacy docker hub alias", mirror, "index.docker.io/busybox:1.37", "registry.example.com/mirror/library/busybox:1.37"},
		{"mirror keeps digest", mirror, "registry.k8s.io/pause@" + sha, "registry.example.com/mirror/pause@" + sha},
		{"mirror keeps tag and digest", mirror, "quay.io/cilium/cilium:v1.18.0@" + sha, "registry.example.com/mirror/cilium/cilium:v1.18.0@" + sha},
		{"mirror of registry with port", mirror, "localhost:5000/team/app:1", "registry.example.com/mirror/team/app:1"},
		{"mirror is idempotent", mirror, "registry.example.com/mirror/coredns/coredns:v1.12.4", "registry.example.com/mirror/coredns/coredns:v1.12.4"},

		{"proxy prefixes upstream registry", proxy, "registry.k8s.io/coredns/coredns:v1.12.4", "proxy.example.com:5000/registry.k8s.io/coredns/coredns:v1.12.4"},
		{"proxy of docker hub short name", proxy, "busybox", "proxy.example.com:5000/docker.io/library/busybox"},
		{"proxy keeps digest", proxy, "ghcr.io/org/img@" + sha, "proxy.example.com:5000/ghcr.io/org/img@" + sha},
		{"proxy is idempotent", proxy, "proxy.example.com:5000/registry.k8s.io/pause:3.10", "proxy.example.com:5000/registry.k8s.io/pause:3.10"},
		{"proxy lower-cases the upstream host", proxy, "Registry.K8s.io/pause:3.10", "proxy.example.com:5000/registry.k8s.io/pause:3.10"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := NewRemapper(tt.assets)
			require.NoError(t, err)
			got, err := r.RemapImage(tt.image)
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
			again, err := r.RemapImage(got)
			require.NoError(t, err)
			assert.Equal(t, got, again, "remapping must be idempotent")
		})
	}
}

func TestNilRemapper(t *testing.T) {
	var r *Remapper
	got, err := r.RemapImage("registry.k8s.io/pause:3.10")
	require.NoError(t, err)
	assert.Equal(t, "registry.k8s.io/pause:3.10", got)
}

func TestRemapImageRejectsInvalid(t *testing.T) {
	r, err := NewRemapper(&kops.AssetsSpec{ContainerRegistry: "registry.example.com"})
	require.NoError(t, err)
	for _, image := range []string{
		"",
		"registry.k8s.io/CoreDNS:v1",
		"busy box",
		"registry.k8s.io/pause:",
		"registry.k8s.io/pause@sha256:short",
		"registry.k8s.io//pause",
		"bad_host.example.com/x/y",
		"busybox@sha256:0123456789abcdef0123456789abcdef",
		strings.Repeat("a", 300),
	} {
		t.Run(image, func(t *testing.T) {
			_, err := r.RemapImage(image)
			assert.Error(t, err)
		})
	}
}

// Below a proxy the upstream registry is a path component, which cannot hold a port: remapping
// to proxy.example.com/localhost:5000/app gave a reference no runtime can pull.
func TestRemapImageBelowProxyRefusesUnnameableRegistries(t *testing.T) {
	r, err := NewRemapper(&kops.AssetsSpec{ContainerProxy: "proxy.example.com"})
	require.NoError(t, err)
	for _, image := range []string{"localhost:5000/team/app:1", "[::1]:5000/app@" + sha} {
		t.Run(image, func(t *testing.T) {
			_, err := r.RemapImage(image)
			assert.ErrorContains(t, err, "cannot be named in a path below containerProxy proxy.example.com")
		})
	}
}

// A remapped path longer than the grammar allows is refused, not handed to the node.
func TestRemapImageRefusesTooLongResult(t *testing.T) {
	r, err := NewRemapper(&kops.AssetsSpec{ContainerRegistry: "registry.example.com/" + strings.Repeat("m", 200)})
	require.NoError(t, err)
	_, err = r.RemapImage("registry.k8s.io/" + strings.Repeat("a", 100) + ":v1")
	assert.ErrorContains(t, err, "cannot be remapped")
	assert.ErrorContains(t, err, "must not be more than 255 characters")
}

func TestNewRemapperRejectsInvalid(t *testing.T) {
	tests := []struct {
		name   string
		assets *kops.AssetsSpec
		want   string
	}{
		{"both set", &kops.AssetsSpec{ContainerRegistry: "a.example.com", ContainerProxy: "b.example.com"}, "mutually exclusive"},
		{"scheme", &kops.AssetsSpec{ContainerRegistry: "https://a.example.com"}, "spec.assets.containerRegistry"},
		{"bad path", &kops.AssetsSpec{ContainerProxy: "proxy.example.com/Upper"}, "spec.assets.containerProxy"},
		// Images remapped under "mirror" would be pulled from Docker Hub's namespace mirror.
		{"host without a dot or port", &kops.AssetsSpec{ContainerRegistry: "mirror/team"}, `spec.assets.containerRegistry: "mirror/team": "mirror" would be read as a Docker Hub namespace`},
		{"upper-case host without a dot or port", &kops.AssetsSpec{ContainerProxy: "A"}, `spec.assets.containerProxy: "A": "A" would be read as a Docker Hub namespace`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := NewRemapper(tt.assets)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
}
