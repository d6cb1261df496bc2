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

package manager

import (
	"testing"

	"github.com/stretchr/testify/assert"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

func managedBy(managers ...string) *unstructured.Unstructured {
	u := &unstructured.Unstructured{Object: map[string]any{}}
	var fields []metav1.ManagedFieldsEntry
	for _, m := range managers {
		fields = append(fields, metav1.ManagedFieldsEntry{Manager: m, Operation: metav1.ManagedFieldsOperationApply})
	}
	u.SetManagedFields(fields)
	return u
}

func TestAdoptedFrom(t *testing.T) {
	for _, tc := range []struct {
		name   string
		cached *unstructured.Unstructured
		want   []string
	}{
		{"does not exist: created, not adopted", nil, nil},
		{"the operator manages it already", managedBy("kops-channels", "the-operator"), nil},
		{"the built-in addon's", managedBy("kops-channels", "kube-controller-manager", "kops-channels"), []string{"kops-channels", "kube-controller-manager"}},
		{"made without a field manager", managedBy(), []string{"no field manager"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, adoptedFrom(tc.cached, "the-operator"))
		})
	}
}
