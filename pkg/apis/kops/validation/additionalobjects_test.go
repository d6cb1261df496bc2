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
