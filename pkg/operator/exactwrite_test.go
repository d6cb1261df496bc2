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

package operator

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// ExactWrite keeps from the current object exactly what the policy leaves to others, and drops what
// someone added.
func TestExactWrite(t *testing.T) {
	desired := map[string]interface{}{
		"apiVersion": "apps/v1", "kind": "Deployment",
		"metadata": map[string]interface{}{"name": "coredns", "namespace": "kube-system", "labels": map[string]interface{}{"k8s-app": "kube-dns"}},
		"spec":     map[string]interface{}{"template": map[string]interface{}{"x": "rendered"}},
	}
	current := map[string]interface{}{
		"apiVersion": "apps/v1", "kind": "Deployment",
		"metadata": map[string]interface{}{"name": "coredns", "namespace": "kube-system", "resourceVersion": "7", "uid": "u",
			"labels":      map[string]interface{}{"k8s-app": "kube-dns", "addon.kops.k8s.io/name": "coredns.addons.x-k8s.io", "example.com/admin": "note"},
			"annotations": map[string]interface{}{"deployment.kubernetes.io/revision": "3", "example.com/admin": "note"},
			"finalizers":  []interface{}{"example.com/block"}},
		"spec":   map[string]interface{}{"replicas": int64(4), "template": map[string]interface{}{"x": "edited"}, "paused": true},
		"status": map[string]interface{}{"replicas": int64(4)},
	}
	assert.Equal(t, map[string]interface{}{
		"apiVersion": "apps/v1", "kind": "Deployment",
		"metadata": map[string]interface{}{"name": "coredns", "namespace": "kube-system", "resourceVersion": "7", "uid": "u",
			"labels":      map[string]interface{}{"k8s-app": "kube-dns", "addon.kops.k8s.io/name": "coredns.addons.x-k8s.io"},
			"annotations": map[string]interface{}{"deployment.kubernetes.io/revision": "3"}},
		"spec":   map[string]interface{}{"replicas": int64(4), "template": map[string]interface{}{"x": "rendered"}},
		"status": map[string]interface{}{"replicas": int64(4)},
	}, ExactWrite("Deployment", desired, current))
	assert.NotContains(t, desired["spec"], "replicas", "desired is not changed")
}
