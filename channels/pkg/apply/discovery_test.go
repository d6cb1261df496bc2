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
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/rest"
)

// A server without aggregated discovery (before Kubernetes 1.30 it could be turned off) is read
// one group version at a time; the aggregated form is exercised against the real API server in
// tests/e2e.
func TestServerResourcesWithoutAggregatedDiscovery(t *testing.T) {
	pages := map[string]string{
		"/api":               `{"kind":"APIVersions","versions":["v1"]}`,
		"/api/v1":            `{"kind":"APIResourceList","groupVersion":"v1","resources":[{"name":"configmaps","namespaced":true,"kind":"ConfigMap","verbs":["get","list","delete"]},{"name":"namespaces","namespaced":false,"kind":"Namespace","verbs":["get"]},{"name":"namespaces/status","namespaced":false,"kind":"Namespace","verbs":["get"]}]}`,
		"/apis":              `{"kind":"APIGroupList","groups":[{"name":"apps","versions":[{"groupVersion":"apps/v1beta1","version":"v1beta1"},{"groupVersion":"apps/v1","version":"v1"}],"preferredVersion":{"groupVersion":"apps/v1","version":"v1"}}]}`,
		"/apis/apps/v1":      `{"kind":"APIResourceList","groupVersion":"apps/v1","resources":[{"name":"deployments","namespaced":true,"kind":"Deployment","verbs":["list","delete"]}]}`,
		"/apis/apps/v1beta1": `{"kind":"APIResourceList","groupVersion":"apps/v1beta1","resources":[{"name":"deployments","namespaced":true,"kind":"Deployment","verbs":["list","delete"]}]}`,
	}
	requests := 0
	server := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests++
		page, ok := pages[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(page))
	}))
	defer server.Close()
	a, err := New(&rest.Config{Host: server.URL}, Options{})
	require.NoError(t, err)
	ctx := context.Background()

	m, err := a.resources.RESTMapping(ctx, schema.GroupKind{Group: "apps", Kind: "Deployment"})
	require.NoError(t, err)
	assert.Equal(t, schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"}, m.Resource, "the preferred version")
	assert.Equal(t, meta.RESTScopeNameNamespace, m.Scope.Name())
	m, err = a.resources.RESTMapping(ctx, schema.GroupKind{Kind: "Namespace"}, "v1")
	require.NoError(t, err)
	assert.Equal(t, meta.RESTScopeNameRoot, m.Scope.Name())
	_, err = a.resources.RESTMapping(ctx, schema.GroupKind{Group: "example.com", Kind: "Thing"}, "v1")
	assert.True(t, meta.IsNoMatchError(err), "%v", err)

	assert.Equal(t, 5, requests, "read once")

	a.resources.Reset()
	_, err = a.resources.RESTMapping(ctx, schema.GroupKind{Kind: "ConfigMap"}, "v1")
	require.NoError(t, err)
	assert.Equal(t, 10, requests, "read again after Reset")
}
