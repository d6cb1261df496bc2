package models

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"testing"

	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/yaml"
)

// typedFor returns an empty typed object for a document's apiVersion and kind, so that decoding
// is checked against the real API schema.
func typedFor(apiVersion, kind string) (metav1.Object, error) {
	switch apiVersion + "/" + kind {
	case "v1/ServiceAccount":
		return &corev1.ServiceAccount{}, nil
	case "v1/ConfigMap":
		return &corev1.ConfigMap{}, nil
	case "v1/Service":
		return &corev1.Service{}, nil
	case "rbac.authorization.k8s.io/v1/ClusterRole":
		return &rbacv1.ClusterRole{}, nil
	case "rbac.authorization.k8s.io/v1/ClusterRoleBinding":
		return &rbacv1.ClusterRoleBinding{}, nil
	case "rbac.authorization.k8s.io/v1/Role":
		return &rbacv1.Role{}, nil
	case "rbac.authorization.k8s.io/v1/RoleBinding":
		return &rbacv1.RoleBinding{}, nil
	case "apps/v1/Deployment":
		return &appsv1.Deployment{}, nil
	case "policy/v1/PodDisruptionBudget":
		return &policyv1.PodDisruptionBudget{}, nil
	}
	return nil, fmt.Errorf("no typed struct for %s %s", apiVersion, kind)
}

// manifest is a decoded YAML stream, in document order.
type manifest struct {
	keys    []string // "Kind/name", in order
	objects map[string]metav1.Object
}

// decodeManifest splits a YAML stream and decodes every document strictly into its typed struct.
func decodeManifest(t *testing.T, data []byte) *manifest {
	t.Helper()
	m := &manifest{objects: map[string]metav1.Object{}}
	r := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(data)))
	for {
		doc, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		require.NoError(t, err)
		if len(bytes.TrimSpace(doc)) == 0 {
			continue
		}
		var tm metav1.TypeMeta
		require.NoError(t, yaml.Unmarshal(doc, &tm))
		obj, err := typedFor(tm.APIVersion, tm.Kind)
		require.NoError(t, err)
		require.NoError(t, yaml.UnmarshalStrict(doc, obj), "decoding %s:\n%s", tm.Kind, doc)
		key := tm.Kind + "/" + obj.GetName()
		require.NotContains(t, m.objects, key, "duplicate object")
		m.keys = append(m.keys, key)
		m.objects[key] = obj
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
