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
	"fmt"

	"k8s.io/apimachinery/pkg/api/validation/path"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"k8s.io/kops/pkg/kopscodecs"
)

// ValidateAdditionalObjects checks stored objects for what the API server would refuse only at apply
// time (bad names, duplicates); results are indexed like objs.
func ValidateAdditionalObjects(objs []*unstructured.Unstructured) []field.ErrorList {
	out := make([]field.ErrorList, len(objs))
	seen := map[string]bool{}
	namePath := field.NewPath("metadata", "name")
	for i, u := range objs {
		gvk := u.GroupVersionKind()
		key := fmt.Sprintf("%s/%s/%s/%s", gvk.Group, gvk.Kind, u.GetNamespace(), u.GetName())
		if seen[key] {
			out[i] = append(out[i], field.Duplicate(namePath, u.GetName()))
		}
		seen[key] = true
		if kopscodecs.IsComponentConfig(u) {
			continue
		}
		for _, msg := range nameProblems(gvk.Group, gvk.Kind, u.GetName()) {
			out[i] = append(out[i], field.Invalid(namePath, u.GetName(), msg))
		}
		if ns := u.GetNamespace(); ns != "" {
			for _, msg := range validation.IsDNS1123Label(ns) {
				out[i] = append(out[i], field.Invalid(field.NewPath("metadata", "namespace"), ns, msg))
			}
		}
	}
	return out
}

// nameProblems applies the API server's name rule for a kind (RBAC names are path segments, so
// system:coredns is valid).
func nameProblems(group, kind, name string) []string {
	switch {
	case group == "" && kind == "Namespace":
		return validation.IsDNS1123Label(name)
	case group == "" && kind == "Service":
		return validation.IsDNS1035Label(name)
	case group == "rbac.authorization.k8s.io":
		return path.IsValidPathSegmentName(name)
	default:
		return validation.IsDNS1123Subdomain(name)
	}
}
