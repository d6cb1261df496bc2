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
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/yaml"

	"k8s.io/kops/pkg/kubemanifest"
	"k8s.io/kops/util/pkg/allocbound"
)

// FuzzCheckManifest: a package manifest comes with a channel anyone may name in spec.channel, and
// Verify checks it when the channel is set so that a bad one is refused then, not at update time.
// Checking must not panic and must work in proportion to the input; a manifest it accepts holds
// documents that, read as kops reads them when it builds the addon (as Kubernetes objects, whose
// field names are case-sensitive), each have an apiVersion and a kind.
func FuzzCheckManifest(f *testing.F) {
	for _, s := range []string{
		"apiVersion: v1\nkind: ServiceAccount\nmetadata: {name: op, namespace: ns}\n---\n# comment\n---\napiVersion: apps/v1\nkind: Deployment\nmetadata: {name: op}\n",
		"apiVersion: v1\n",
		"# only a comment\n",
		"kind: [x]\napiVersion: {a: b}\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var err error
		allocbound.Check(t, len(data), func() { err = checkManifest(data) })
		if err != nil {
			return
		}
		docs, err := kubemanifest.Split(data)
		require.NoError(t, err)
		require.NotEmpty(t, docs)
		for i, doc := range docs {
			u := &unstructured.Unstructured{}
			require.NoError(t, yaml.Unmarshal(doc, &u.Object), "document %d", i+1)
			assert.NotEmpty(t, u.GetAPIVersion(), "document %d has no apiVersion as kops reads it:\n%s", i+1, doc)
			assert.NotEmpty(t, u.GetKind(), "document %d has no kind as kops reads it:\n%s", i+1, doc)
		}
	})
}
