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

package kubemanifest

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
)

func TestDecodeStrict(t *testing.T) {
	objs, err := DecodeStrict([]byte("# a comment only\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  namespace: kube-system\ndata:\n  k: v\n---\napiVersion: v1\nkind: Namespace\nmetadata:\n  name: ops\n"))
	require.NoError(t, err)
	require.Len(t, objs, 2)
	assert.Equal(t, "ConfigMap/kube-system/a", objs[0].Key())
	assert.Equal(t, "v", objs[0].Typed.(*corev1.ConfigMap).Data["k"])
	assert.Equal(t, "Namespace/ops", objs[1].Key())
}

// APIService is a type of this package (see apiservice.go): it decodes like the others.
func TestDecodeStrictAPIService(t *testing.T) {
	objs, err := DecodeStrict([]byte("apiVersion: apiregistration.k8s.io/v1\nkind: APIService\nmetadata:\n  name: v1beta1.metrics.k8s.io\n" +
		"spec:\n  group: metrics.k8s.io\n  version: v1beta1\n  groupPriorityMinimum: 100\n  versionPriority: 100\n  insecureSkipTLSVerify: true\n" +
		"  service: {name: metrics-server, namespace: kube-system, port: 443}\n"))
	require.NoError(t, err)
	require.Len(t, objs, 1)
	api := objs[0].Typed.(*APIService)
	assert.Equal(t, "APIService/v1beta1.metrics.k8s.io", objs[0].Key())
	assert.Equal(t, int32(443), *api.Spec.Service.Port)
	assert.True(t, api.Spec.InsecureSkipTLSVerify)
}

func TestDecodeStrictRejects(t *testing.T) {
	cases := map[string]string{
		"unknown field":   "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\ndatta: {}\n",
		"misplaced field": "apiVersion: v1\nkind: Service\nmetadata:\n  name: a\n  clusterIP: 1.2.3.4\n",
		"unknown kind":    "apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: a\n",
		"wrong type":      "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\ndata: [1]\n",
		// The API server matches field names case-sensitively and would drop these.
		"field in another case":        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\nData: {k: v}\n",
		"nested field in another case": "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: a\nspec:\n  templAte: {}\n",
		"field twice":                  "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\ndata: {}\ndata: {}\n",
		"APIService unknown field":     "apiVersion: apiregistration.k8s.io/v1\nkind: APIService\nmetadata:\n  name: v1.x.io\nspec:\n  insecureSkipTlsVerify: true\n",
	}
	for name, input := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := DecodeStrict([]byte(input))
			assert.Error(t, err)
		})
	}
}
