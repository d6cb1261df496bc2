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

package imageref

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const sha = "sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"

func TestParse(t *testing.T) {
	tests := []struct {
		image string
		want  Image
	}{
		{"busybox", Image{Registry: "docker.io", Repository: "library/busybox"}},
		{"docker.io/busybox:1.37", Image{Registry: "docker.io", Repository: "library/busybox", Tag: "1.37"}},
		{"index.docker.io/busybox:1.37", Image{Registry: "docker.io", Repository: "library/busybox", Tag: "1.37"}},
		{"calico/node:v3.31.0", Image{Registry: "docker.io", Repository: "calico/node", Tag: "v3.31.0"}},
		{"registry.k8s.io/coredns/coredns:v1.12.4", Image{Registry: "registry.k8s.io", Repository: "coredns/coredns", Tag: "v1.12.4"}},
		{"localhost/coredns", Image{Registry: "localhost", Repository: "coredns"}},
		{"localhost:5000/team/app:1", Image{Registry: "localhost:5000", Repository: "team/app", Tag: "1"}},
		{"10.0.0.1:5000/a/b/c", Image{Registry: "10.0.0.1:5000", Repository: "a/b/c"}},
		{"[::1]:5000/app@" + sha, Image{Registry: "[::1]:5000", Repository: "app", Digest: sha}},
		{"busybox@" + sha, Image{Registry: "docker.io", Repository: "library/busybox", Digest: sha}},
		{"quay.io/cilium/cilium:v1.18.0@" + sha, Image{Registry: "quay.io", Repository: "cilium/cilium", Tag: "v1.18.0", Digest: sha}},
		{"my-registry.example.com/team__x/core.dns-x:V1_2", Image{Registry: "my-registry.example.com", Repository: "team__x/core.dns-x", Tag: "V1_2"}},
		// Host names are not case-sensitive; runtimes read an upper-case first component as a host.
		{"Registry.K8s.io/pause:3.10", Image{Registry: "Registry.K8s.io", Repository: "pause", Tag: "3.10"}},
	}
	for _, tt := range tests {
		t.Run(tt.image, func(t *testing.T) {
			got, err := Parse(tt.image)
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
			again, err := Parse(got.String())
			require.NoError(t, err, "the fully qualified form %q parses", got.String())
			assert.Equal(t, got, again)
		})
	}
}

// TestParseRefuses: references the container runtime refuses are refused here, with an error that
// names the reference and the part that is wrong.
func TestParseRefuses(t *testing.T) {
	tests := map[string]string{
		"":                                "is empty",
		"https://registry.k8s.io/coredns": "scheme",
		"coredns/coredns :v1":             "whitespace",
		"busybox@sha256:" + strings.Repeat("a", 32):                  `digest "sha256:aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa": invalid checksum digest length`,
		"busybox@sha256:" + strings.Repeat("A", 64):                  "invalid checksum digest format",
		"busybox@sha256:short":                                       `digest "sha256:short" must be algorithm:hex`,
		"busybox@md5:" + strings.Repeat("a", 32):                     "unsupported digest algorithm",
		"a@" + strings.Repeat("0", 64):                               "must be algorithm:hex",
		strings.Repeat("a", 300):                                     "must not be more than 255 characters",
		"registry.example.com/" + strings.Repeat("a/", 150) + "a:v1": "must not be more than 255 characters",
		strings.Repeat("0", 64):                                      "cannot specify 64-byte hexadecimal strings",
		"CoreDNS":                                                    `path component "CoreDNS" must be lowercase`,
		"registry.k8s.io/CoreDNS/coredns":                            `path component "CoreDNS" must be lowercase`,
		"registry.k8s.io//coredns":                                   "empty path component",
		"coredns/":                                                   "empty path component",
		"coredns:":                                                   `tag ""`,
		"registry.k8s.io/pause:":                                     `tag ""`,
		"coredns:bad!tag":                                            `tag "bad!tag"`,
		"coredns:.leading.dots":                                      `tag ".leading.dots"`,
		"coredns:" + strings.Repeat("a", 129):                        "tag",
		"coredns:v1/x":                                               `registry host "coredns:v1"`,
		"reg_istry.example.com/coredns":                              `registry host "reg_istry.example.com"`,
		"-registry.example.com/coredns":                              "registry host",
		"registry.example.com:/coredns":                              "registry host",
		"[fd00::1/coredns":                                           "registry host",
		"[10.0.0.1]:5000/coredns":                                    "registry host",
		"registry.example.com:0/coredns":                             `port "0" of registry "registry.example.com:0" must be a number from 1 to 65535`,
		"registry.example.com:65536/coredns":                         "must be a number from 1 to 65535",
		"registry.example.com/coredns-":                              `path component "coredns-"`,
		"registry.example.com/a..b":                                  `path component "a..b"`,
	}
	for image, want := range tests {
		t.Run(image, func(t *testing.T) {
			_, err := Parse(image)
			require.Error(t, err)
			assert.ErrorContains(t, err, want)
			assert.True(t, strings.HasPrefix(err.Error(), "image reference "), "the error names the reference: %v", err)
		})
	}
}

func TestParsePinned(t *testing.T) {
	tests := map[string]string{ // image: error fragment, "" when pinned
		"registry.k8s.io/coredns/coredns:v1.12.4": "",
		"localhost:5000/a:1.0":                    "",
		"a@" + sha:                                "",
		"a:v1@" + sha:                             "",
		"a:latest@" + sha:                         "", // the digest fixes the content
		"registry.k8s.io/coredns/coredns":         "has no tag",
		"registry.k8s.io/coredns/coredns:latest":  "mutable tag latest",
		"localhost:5000/a":                        "has no tag",
		"a@sha512:" + strings.Repeat("a", 128):    "pin it with a sha256 digest, not sha512",
		"a@sha256:abc":                            "digest",
		"a:":                                      "tag",
		":v1":                                     "names no repository",
		"a:v1 ":                                   "whitespace",
		"registry.k8s.io/coredns/coredns:-bad-start-x": "tag",
	}
	for image, want := range tests {
		t.Run(image, func(t *testing.T) {
			_, err := ParsePinned(image)
			if want == "" {
				assert.NoError(t, err)
			} else {
				assert.ErrorContains(t, err, want)
			}
		})
	}
}

func TestParseLocation(t *testing.T) {
	for loc, want := range map[string]string{
		"registry.example.com":                 "registry.example.com",
		"registry.example.com:5000":            "registry.example.com:5000",
		"registry.example.com/mirror":          "registry.example.com/mirror",
		"registry.example.com:5000/mirror/k8s": "registry.example.com:5000/mirror/k8s",
		"proxy.example.com:5000/":              "proxy.example.com:5000",
		"10.0.0.1:5000":                        "10.0.0.1:5000",
		"[fd00::1]:5000/x":                     "[fd00::1]:5000/x",
		"localhost":                            "localhost",
	} {
		got, err := ParseLocation(loc)
		require.NoError(t, err, loc)
		assert.Equal(t, want, got, loc)
	}
	for loc, want := range map[string]string{
		"https://registry.example.com":  "drop the scheme",
		"registry example.com":          "whitespace",
		"registry.example.com:0":        "from 1 to 65535",
		"registry.example.com:65536":    "from 1 to 65535",
		"registry..example.com":         `registry host "registry..example.com"`,
		"":                              "would be read as a Docker Hub namespace",
		"registry.example.com/Mirror":   `path component "Mirror" must be lowercase`,
		"registry.example.com//mirror":  "empty path component",
		"registry.example.com/m:v1":     `registry.example.com/m:v1`,
		"mirror/team":                   `"mirror" would be read as a Docker Hub namespace`,
		"A":                             `"A" would be read as a Docker Hub namespace`,
		"registry.example.com/m@" + sha: "registry.example.com/m@",
	} {
		_, err := ParseLocation(loc)
		assert.ErrorContains(t, err, want, loc)
	}
}
