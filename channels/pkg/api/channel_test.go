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

package api

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const validChannel = `apiVersion: kops.k8s.io/v1alpha2
kind: Channel
metadata:
  name: test
spec:
  packages:
  - name: operator.coredns.addons.x-k8s.io
    version: 0.2.0
    kubernetesVersion: ">=1.30.0 <1.37.0"
  - name: operator.coredns.addons.x-k8s.io
    version: 0.3.0-alpha.1
    image: registry.k8s.io/cluster-addons/coredns-operator@sha256:` + digest + `
  - name: coredns
    version: 1.12.4
    image: registry.k8s.io/coredns/coredns:v1.12.4
`

const digest = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"

func TestParseChannel(t *testing.T) {
	c, err := ParseChannel([]byte(validChannel))
	require.NoError(t, err)
	assert.Equal(t, "test", c.Metadata.Name)
	require.Len(t, c.Spec.Packages, 3)
	assert.Equal(t, PackageSpec{
		Name:              "operator.coredns.addons.x-k8s.io",
		Version:           "0.2.0",
		KubernetesVersion: ">=1.30.0 <1.37.0",
	}, c.Spec.Packages[0])
}

func TestParseChannelRejects(t *testing.T) {
	header := "apiVersion: kops.k8s.io/v1alpha2\nkind: Channel\nspec:\n  packages:\n"
	cases := map[string]struct {
		data string
		want []string // substrings of the error
	}{
		"wrong kind": {
			data: "apiVersion: kops.k8s.io/v1alpha2\nkind: Addons\nspec: {}\n",
			want: []string{"kind: Invalid value", `"Addons"`},
		},
		"wrong apiVersion": {
			data: "apiVersion: v1\nkind: Channel\nspec: {}\n",
			want: []string{"apiVersion: Invalid value", "kops.k8s.io/v1alpha2"},
		},
		"unknown field": {
			data: header + "  - name: a\n    version: 1.0.0\n    manifest: x.yaml\n",
			want: []string{`unknown field "spec.packages[0].manifest"`},
		},
		"number where a string belongs": {
			data: header + "  - name: a\n    version: 1.2\n",
			want: []string{"spec.packages.version", "of type string"},
		},
		"not yaml": {data: "kind: [", want: []string{"parsing channel"}},
		"missing name and version": {
			data: header + "  - kubernetesVersion: '>=1.30.0'\n",
			want: []string{"spec.packages[0].name: Required value", "spec.packages[0].version: Required value"},
		},
		"name with a slash": {
			data: header + "  - name: ../etc\n    version: 1.0.0\n",
			want: []string{"spec.packages[0].name: Invalid value"},
		},
		"version not semver": {
			data: header + "  - name: a\n    version: \"1.2\"\n",
			want: []string{"spec.packages[0].version: Invalid value"},
		},
		"bad range is reported with its index": {
			data: header + "  - name: a\n    version: 1.0.0\n  - name: b\n    version: 1.0.0\n" +
				"  - name: c\n    version: 1.0.0\n    kubernetesVersion: '>=1.30'\n",
			want: []string{"spec.packages[2].kubernetesVersion: Invalid value"},
		},
		"latest image": {
			data: header + "  - name: a\n    version: 1.0.0\n    image: registry.k8s.io/a:latest\n",
			want: []string{"spec.packages[0].image: Invalid value", "latest"},
		},
		"untagged image": {
			data: header + "  - name: a\n    version: 1.0.0\n    image: localhost:5000/a\n",
			want: []string{"spec.packages[0].image: Invalid value", "no tag"},
		},
		"duplicate version": {
			data: header + "  - name: a\n    version: 1.0.0\n  - name: a\n    version: 1.0.0\n",
			want: []string{"spec.packages[1]: Duplicate value", "a@1.0.0"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := ParseChannel([]byte(tc.data))
			require.Error(t, err)
			for _, w := range tc.want {
				assert.Contains(t, err.Error(), w)
			}
		})
	}
}

func TestValidatePinnedImage(t *testing.T) {
	cases := map[string]bool{
		"registry.k8s.io/coredns/coredns:v1.12.4": true,
		"localhost:5000/a:1.0":                    true,
		"a@sha256:" + digest:                      true,
		"a:v1@sha256:" + digest:                   true,
		"registry.k8s.io/coredns/coredns":         false,
		"registry.k8s.io/coredns/coredns:latest":  false,
		"localhost:5000/a":                        false,
		"a@sha256:abc":                            false,
		"a@" + strings.Repeat("0", 64):            false,
		"a:":                                      false,
		":v1":                                     false,
		"a:v1 ":                                   false,
		"registry.k8s.io/coredns/coredns:-bad-start-x": false,
		"busybox@sha256:" + strings.Repeat("a", 32):    false, // a runtime refuses a short sha256
		strings.Repeat("a", 300) + ":v1":               false, // longer than the grammar's 255
		"registry.k8s.io/CoreDNS:v1":                   false,
		"bad_host.example.com/coredns:v1":              false,
	}
	for image, ok := range cases {
		err := ValidatePinnedImage(image)
		if ok {
			assert.NoError(t, err, image)
		} else {
			assert.Error(t, err, image)
		}
	}
}
