package coredns

import (
	"testing"

	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"k8s.io/kops/pkg/kubemanifest"
)

// manifest is a decoded YAML stream, in document order.
type manifest struct {
	keys    []string // "Kind/name", in order
	objects map[string]metav1.Object
}

// decodeManifest decodes every document strictly into its typed struct.
func decodeManifest(t *testing.T, data []byte) *manifest {
	t.Helper()
	objs, err := kubemanifest.DecodeStrict(data)
	require.NoError(t, err)
	m := &manifest{objects: map[string]metav1.Object{}}
	for _, o := range objs {
		key := o.Kind + "/" + o.Typed.GetName()
		require.NotContains(t, m.objects, key, "duplicate object")
		m.keys = append(m.keys, key)
		m.objects[key] = o.Typed
	}
	return m
}

// get returns the object of type T named by key, failing the test when it is missing.
func get[T metav1.Object](t *testing.T, m *manifest, key string) T {
	t.Helper()
	obj, ok := m.objects[key]
	require.True(t, ok, "missing %s", key)
	typed, ok := obj.(T)
	require.True(t, ok, "%s has type %T", key, obj)
	return typed
}

// deployments returns every Deployment in the manifest.
func (m *manifest) deployments() []*appsv1.Deployment {
	var out []*appsv1.Deployment
	for _, k := range m.keys {
		if d, ok := m.objects[k].(*appsv1.Deployment); ok {
			out = append(out, d)
		}
	}
	return out
}
