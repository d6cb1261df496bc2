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
	"bytes"
	"encoding/json"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/yaml"

	"k8s.io/kops/channels/pkg/api"
	"k8s.io/kops/util/pkg/allocbound"
)

// FuzzDecodeManifest: an addon's manifest comes with the channel. Decoding must not panic and must
// work in proportion to the input; a refusal lists its problems; what is accepted has every
// object's apiVersion, kind and name, no object twice, and written back as a YAML stream decodes to
// the same objects.
func FuzzDecodeManifest(f *testing.F) {
	for _, s := range []string{
		"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  namespace: kube-system\ndata: {k: v}\n---\n# a comment\n---\napiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\nspec: {replicas: 2}\n",
		"apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicyBinding\nmetadata:\n  name: scope\n  annotations:\n    channels.kops.k8s.io/enforcement-probe: '{\"user\":\"u\",\"object\":{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"p\",\"namespace\":\"n\"}}}'\nspec: {policyName: scope}\n",
		"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n",
		"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\ndata: &d {1: *d}\n",
		"- a\n---\n{apiVersion: v1, kind: X, metadata: {name: 1.5}}\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var err error
		var objs []*unstructured.Unstructured
		allocbound.Check(t, len(data), func() {
			m := decodeManifest("m.yaml", data)
			m.checkMetadata(withCRDs(m.unstructured()))
			if err = m.err(); err == nil {
				objs = m.unstructured()
			}
		})
		if err != nil {
			var fe *api.FileError
			require.True(t, errors.As(err, &fe), "%T: %v", err, err)
			require.NotEmpty(t, fe.Problems)
			assert.Nil(t, objs)
			return
		}
		var stream bytes.Buffer
		seen := map[manifestKey]bool{}
		for _, o := range objs {
			assert.NotEmpty(t, o.GetAPIVersion())
			assert.NotEmpty(t, o.GetKind())
			assert.NotEmpty(t, o.GetName())
			assert.False(t, seen[manifestKeyOf(o)], "%s twice", manifestKeyOf(o))
			seen[manifestKeyOf(o)] = true
			doc, err := yaml.Marshal(o.Object)
			require.NoError(t, err)
			stream.WriteString("---\n")
			stream.Write(doc)
		}
		again := decodeManifest("again.yaml", stream.Bytes())
		require.NoError(t, again.err(), "re-decoding our own output:\n%s", stream.String())
		back := again.unstructured()
		require.Len(t, back, len(objs))
		for i := range objs {
			want, err := json.Marshal(objs[i].Object)
			require.NoError(t, err)
			got, err := json.Marshal(back[i].Object)
			require.NoError(t, err)
			assert.JSONEq(t, string(want), string(got))
		}
	})
}
