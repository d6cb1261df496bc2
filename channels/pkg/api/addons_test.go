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
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestAddonsRoundTrip(t *testing.T) {
	a := NewAddons("bootstrap")
	a.Spec.Addons = append(a.Spec.Addons, AddonSpec{
		Name:         "coredns.addons.k8s.io",
		ID:           "k8s-1.12",
		Selector:     map[string]string{"k8s-addon": "coredns.addons.k8s.io"},
		Manifest:     "coredns.addons.k8s.io/k8s-1.12.yaml",
		ManifestHash: ManifestHash([]byte("x")),
	})
	data, err := a.Encode()
	require.NoError(t, err)
	assert.Equal(t, `kind: Addons
metadata:
  name: bootstrap
spec:
  addons:
  - id: k8s-1.12
    manifest: coredns.addons.k8s.io/k8s-1.12.yaml
    manifestHash: 2d711642b726b04401627ca9fbac32f5c8530fb1903cc4db02258717921a4881
    name: coredns.addons.k8s.io
    selector:
      k8s-addon: coredns.addons.k8s.io
`, string(data))

	back, err := ParseAddons(data)
	require.NoError(t, err)
	assert.Equal(t, a, back)
}

func TestParseAddonsRejects(t *testing.T) {
	cases := map[string]string{
		"unknown field": "kind: Addons\nmetadata: {name: b}\nspec:\n  addons:\n  - name: a\n    manifest: a.yaml\n    manifestHash: x\n    manifestHsh: y\n",
		"wrong kind":    "kind: Channel\nmetadata: {name: b}\nspec: {addons: []}\n",
	}
	for name, input := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := ParseAddons([]byte(input))
			assert.Error(t, err)
		})
	}
}
