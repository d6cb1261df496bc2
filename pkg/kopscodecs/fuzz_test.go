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

package kopscodecs

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"k8s.io/kops/util/pkg/allocbound"
)

// fuzzSeeds are small documents, one feature each: the fuzzer minimizes every input that finds new
// code, and minimizing a kilobyte-sized cluster took its whole minute (FuzzDecode made 7
// executions in 60 s). Larger inputs that once broke the decoder are under testdata/fuzz/FuzzDecode.
var fuzzSeeds = []string{
	minimalCluster,
	"apiVersion: kops.k8s.io/v1alpha2\nkind: InstanceGroup\nmetadata:\n  name: nodes\nspec:\n  minSize: 1\n  subnets: [a]\n",
	// Unmodeled fields, at the top, in a list item and beside modeled ones.
	"apiVersion: kops.k8s.io/v1alpha2\nkind: Cluster\nmetadata:\n  name: x\nspec:\n  subnets:\n  - name: a\n    egress: nat-1\n  kubeDNS:\n    memoryLimit: 1Gi\n    tolerations: [{key: a, operator: Exists}]\n",
	"apiVersion: kops.k8s.io/v1alpha2\nkind: SSHCredential\nmetadata: {name: admin}\nspec: {publicKey: ssh-ed25519 AAAA}\n",
	"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c, namespace: kube-system}\ndata: {a: b}\n---\napiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n",
	"apiVersion: kops.k8s.io/v1alpha2\nkind: Cluster\nmetadata: {name: x}\nspec:\n  kubeDNS: {tolerations: &t [{key: a, operator: Exists}]}\n  hooks: *t\n",
	"---\n---\n",
	"a: &x [*x]\n",
}

// FuzzDecode feeds arbitrary bytes to the decoder. It must not panic; its work must be proportional
// to the input; a refusal must say where; and whatever it accepts must encode, decode again and
// encode to the same bytes (nothing lost, nothing invented).
func FuzzDecode(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var objs []*Object
		var err error
		allocbound.Check(t, len(data), func() { objs, _, err = Decode("fuzz.yaml", data, true) })
		if err != nil {
			var de *DecodeError
			require.True(t, errors.As(err, &de), "%T: %v", err, err)
			require.NotEmpty(t, de.Problems)
			for _, p := range de.Problems {
				assert.NotEmpty(t, p.Document)
				assert.NotEmpty(t, p.Err.Error())
			}
			return
		}
		var addons []*unstructured.Unstructured
		for _, o := range objs {
			switch {
			case o.Cluster != nil:
				checkRoundTrip(t, func(b []byte) ([]byte, error) {
					again := decodeOne(t, b)
					require.NotNil(t, again.Cluster)
					return EncodeCluster(again.Cluster)
				}, EncodeCluster, o.Cluster)
			case o.InstanceGroup != nil:
				checkRoundTrip(t, func(b []byte) ([]byte, error) {
					again := decodeOne(t, b)
					require.NotNil(t, again.InstanceGroup)
					return EncodeInstanceGroup(again.InstanceGroup)
				}, EncodeInstanceGroup, o.InstanceGroup)
			case o.Addon != nil:
				addons = append(addons, o.Addon)
			default:
				require.NotNil(t, o.SSHCredential, "an object with nothing set")
			}
		}
		checkAddonsRoundTrip(t, addons)
	})
}

// checkRoundTrip encodes v, and requires that decoding and encoding that again (reencode) gives the
// same bytes.
func checkRoundTrip[T any](t *testing.T, reencode func([]byte) ([]byte, error), encode func(T) ([]byte, error), v T) {
	first, err := encode(v)
	require.NoError(t, err)
	second, err := reencode(first)
	require.NoError(t, err)
	assert.Equal(t, string(first), string(second))
}

// decodeOne decodes what the encoder wrote, which must be one Cluster or InstanceGroup.
func decodeOne(t *testing.T, data []byte) *Object {
	objs, _, err := Decode("again.yaml", data, false)
	require.NoError(t, err, "re-decoding our own output:\n%s", data)
	require.Len(t, objs, 1)
	return objs[0]
}

// checkAddonsRoundTrip requires that the addon objects, written as kops stores them and read back,
// are the same objects (compared as JSON: 1.0 and 1 are the same number).
func checkAddonsRoundTrip(t *testing.T, addons []*unstructured.Unstructured) {
	if len(addons) == 0 {
		return
	}
	stored, err := EncodeAddons(addons)
	require.NoError(t, err)
	again, _, err := Decode("addons.yaml", stored, true)
	require.NoError(t, err, "re-decoding our own output:\n%s", stored)
	require.Len(t, again, len(addons))
	for i, o := range again {
		require.NotNil(t, o.Addon)
		want, err := json.Marshal(addons[i].Object)
		require.NoError(t, err)
		got, err := json.Marshal(o.Addon.Object)
		require.NoError(t, err)
		assert.JSONEq(t, string(want), string(got))
	}
}
