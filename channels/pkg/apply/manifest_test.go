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
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// readManifestData decodes and checks one manifest as ReadChannel does, with the CRDs it carries.
func readManifestData(source string, data []byte) ([]*unstructured.Unstructured, error) {
	m := decodeManifest(source, data)
	m.checkMetadata(withCRDs(m.unstructured()))
	if err := m.err(); err != nil {
		return nil, err
	}
	return m.unstructured(), nil
}

// A manifest holding one object twice is refused with the file and both documents: server-side
// apply would keep the later one, so a second binding of the same name with Audit would silently
// turn the policy off.
func TestDecodeManifestRefusesDuplicates(t *testing.T) {
	deny := "apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicyBinding\nmetadata:\n  name: scope\nspec:\n  policyName: scope\n  validationActions: [Deny]\n"
	audit := "apiVersion: admissionregistration.k8s.io/v1beta1\nkind: ValidatingAdmissionPolicyBinding\nmetadata:\n  name: scope\nspec:\n  policyName: scope\n  validationActions: [Audit]\n"
	cm := func(ns string) string {
		return "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  namespace: " + ns + "\n"
	}
	cases := []struct {
		name     string
		manifest string
		want     []string
	}{
		{"policy binding turned to Audit, in another version", deny + "---\n" + cm("a") + "---\n" + audit,
			[]string{"m.yaml:15: document 3: ValidatingAdmissionPolicyBinding.admissionregistration.k8s.io scope is also document 1"}},
		{"namespaced object", cm("a") + "---\n" + cm("a"), []string{"m.yaml:7: document 2: ConfigMap a/a is also document 1"}},
		{"same name in other namespaces", cm("a") + "---\n" + cm("b"), nil},
		{"same name of another kind", cm("a") + "---\napiVersion: v1\nkind: Secret\nmetadata:\n  name: a\n  namespace: a\n", nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			objs, err := readManifestData("file:///c/m.yaml", []byte(tc.manifest))
			if tc.want == nil {
				require.NoError(t, err)
				assert.Len(t, objs, 2)
				return
			}
			require.Error(t, err)
			for _, w := range tc.want {
				assert.Contains(t, err.Error(), w)
			}
			assert.Nil(t, objs, "nothing of a bad manifest is applied")
		})
	}
}

func TestDecodeManifestChecksProbes(t *testing.T) {
	probe := func(kind, value string) string {
		return "apiVersion: admissionregistration.k8s.io/v1\nkind: " + kind + "\nmetadata:\n  name: scope\n  annotations:\n" +
			"    channels.kops.k8s.io/enforcement-probe: '" + value + "'\nspec:\n  policyName: scope\n"
	}
	good := `{"user":"system:serviceaccount:ns:sa","object":{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"p","namespace":"kube-system"}}}`
	cases := map[string]struct {
		manifest string
		want     string
	}{
		"good":          {probe("ValidatingAdmissionPolicyBinding", good), ""},
		"wrong kind":    {probe("ValidatingAdmissionPolicy", good), "belongs on a ValidatingAdmissionPolicyBinding"},
		"no user":       {probe("ValidatingAdmissionPolicyBinding", `{"object":{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"p"}}}`), "user is required; object.metadata.namespace is required"},
		"unknown field": {probe("ValidatingAdmissionPolicyBinding", `{"user":"u","groups":["x"]}`), `unknown field "groups"`},
		"not JSON":      {probe("ValidatingAdmissionPolicyBinding", `yes`), "document 1: annotation channels.kops.k8s.io/enforcement-probe"},
		// The probe object is sent too (a dry-run create): its metadata is checked like the others'.
		"probe object named ../x": {probe("ValidatingAdmissionPolicyBinding", `{"user":"u","object":{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"../x","namespace":"Bad NS"}}}`),
			`m.yaml:5: document 1 (ValidatingAdmissionPolicyBinding.admissionregistration.k8s.io scope): metadata.annotations[channels.kops.k8s.io/enforcement-probe].object.metadata.name: Invalid value: "../x"`},
		"probe object of a cluster-scoped kind": {probe("ValidatingAdmissionPolicyBinding", `{"user":"u","object":{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"p","namespace":"x"}}}`),
			"metadata.annotations[channels.kops.k8s.io/enforcement-probe].object.metadata.namespace: Forbidden: Namespace is cluster-scoped"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := readManifestData("m.yaml", []byte(tc.manifest))
			if tc.want == "" {
				assert.NoError(t, err)
				return
			}
			assert.ErrorContains(t, err, tc.want)
		})
	}
}
