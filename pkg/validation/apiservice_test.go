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

package validation

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	dynamicfake "k8s.io/client-go/dynamic/fake"
)

// An APIService is healthy only when the API server reports it Available; otherwise the check
// names why.
func TestCheckAPIService(t *testing.T) {
	apiService := func(conditions ...interface{}) *unstructured.Unstructured {
		u := &unstructured.Unstructured{Object: map[string]interface{}{
			"apiVersion": "apiregistration.k8s.io/v1", "kind": "APIService",
			"metadata": map[string]interface{}{"name": "v1beta1.metrics.k8s.io"},
			"spec":     map[string]interface{}{"group": "metrics.k8s.io", "version": "v1beta1"},
		}}
		if conditions != nil {
			u.Object["status"] = map[string]interface{}{"conditions": conditions}
		}
		return u
	}
	cases := map[string]struct {
		obj  *unstructured.Unstructured
		ok   bool
		want string
	}{
		"missing":      {nil, false, "missing"},
		"no condition": {apiService(), false, "not available: no Available condition yet"},
		"unavailable": {apiService(map[string]interface{}{"type": "Available", "status": "False", "reason": "MissingEndpoints",
			"message": `endpoints for service/metrics-server in "kube-system" have no addresses`}), false,
			`not available: MissingEndpoints endpoints for service/metrics-server in "kube-system" have no addresses`},
		"available": {apiService(map[string]interface{}{"type": "Available", "status": "True", "reason": "Passed"}), true, "available"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			var objs []runtime.Object
			if tc.obj != nil {
				objs = append(objs, tc.obj)
			}
			dyn := dynamicfake.NewSimpleDynamicClientWithCustomListKinds(runtime.NewScheme(),
				map[schema.GroupVersionResource]string{apiServiceResource: "APIServiceList"}, objs...)
			a := &attempt{v: &Validator{Dynamic: dyn}, ctx: context.Background()}
			c, caFrom := a.checkAPIService("v1beta1.metrics.k8s.io")
			assert.Equal(t, Check{Kind: "APIService", Name: "v1beta1.metrics.k8s.io", OK: tc.ok, Message: tc.want}, c)
			assert.Empty(t, caFrom)
		})
	}
}
