package validation

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

func obj(apiVersion, kind, namespace, name string) *unstructured.Unstructured {
	u := &unstructured.Unstructured{Object: map[string]interface{}{"apiVersion": apiVersion, "kind": kind}}
	u.SetNamespace(namespace)
	u.SetName(name)
	return u
}

func TestValidateAdditionalObjects(t *testing.T) {
	objs := []*unstructured.Unstructured{
		obj("v1", "ConfigMap", "kube-system", "dashboards.v1"),
		obj("rbac.authorization.k8s.io/v1", "ClusterRole", "", "system:coredns"),
		obj("kubescheduler.config.k8s.io/v1", "KubeSchedulerConfiguration", "", ""),
		obj("v1", "ConfigMap", "kube-system", "Bad_Name"),
		obj("v1", "Namespace", "", "team.a"),
		obj("v1", "ConfigMap", "kube/system", "x"),
		obj("apps/v1", "Deployment", "default", "../escape"),
		obj("v1", "ConfigMap", "kube-system", "dashboards.v1"),
		obj("v1", "Secret", "kube-system", "dashboards.v1"), // another kind: not a duplicate
		obj("v1", "Service", "default", "1-metrics"),        // services start with a letter
		obj("v1", "Namespace", "", "1-team"),                // namespaces need not
	}
	got := ValidateAdditionalObjects(objs)
	for i, want := range [][]want{
		nil, nil, nil,
		{{invalid, "metadata.name", "RFC 1123"}},
		{{invalid, "metadata.name", "must not contain dots"}},
		{{invalid, "metadata.namespace", "RFC 1123 label"}},
		{{invalid, "metadata.name", "RFC 1123"}},
		{{duplicate, "metadata.name", ""}},
		nil,
		{{invalid, "metadata.name", "DNS-1035 label"}},
		nil,
	} {
		assertErrors(t, got[i], want...)
	}
	assert.Len(t, got, len(objs))
	assert.Equal(t, field.ErrorTypeDuplicate, got[7][0].Type)
}
