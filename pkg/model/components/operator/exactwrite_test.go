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
