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
	"sort"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// phases orders the objects of one manifest so that nothing is created before what it needs:
// namespaces hold everything, CRDs define custom kinds, admission policies and their bindings come
// before the identities, rights and workloads they confine (so that no right is ever held
// unconfined), identities and rights before the pods that use them, configuration before
// workloads, and custom resources last.
var phases = map[schema.GroupKind]int{
	{Group: "", Kind: "Namespace"}:                                                    0,
	{Group: "apiextensions.k8s.io", Kind: "CustomResourceDefinition"}:                 1,
	{Group: "admissionregistration.k8s.io", Kind: "ValidatingAdmissionPolicy"}:        2,
	{Group: "admissionregistration.k8s.io", Kind: "ValidatingAdmissionPolicyBinding"}: 3,
	{Group: "", Kind: "ServiceAccount"}:                                               4,
	{Group: "rbac.authorization.k8s.io", Kind: "ClusterRole"}:                         5,
	{Group: "rbac.authorization.k8s.io", Kind: "Role"}:                                5,
	{Group: "rbac.authorization.k8s.io", Kind: "ClusterRoleBinding"}:                  6,
	{Group: "rbac.authorization.k8s.io", Kind: "RoleBinding"}:                         6,
	{Group: "", Kind: "ConfigMap"}:                                                    7,
	{Group: "", Kind: "Secret"}:                                                       7,
	{Group: "scheduling.k8s.io", Kind: "PriorityClass"}:                               7,
}

// phaseWorkload is every other built-in kind: Deployments, Services, PodDisruptionBudgets...
const phaseWorkload = 8

// phaseCustom is for kinds defined by CRDs.
const phaseCustom = 9

// phaseOf returns the phase of an object. custom says whether a kind is a custom resource.
func phaseOf(custom func(schema.GroupKind) bool) func(*unstructured.Unstructured) int {
	return func(o *unstructured.Unstructured) int {
		gk := o.GroupVersionKind().GroupKind()
		if p, ok := phases[gk]; ok {
			return p
		}
		if custom(gk) {
			return phaseCustom
		}
		return phaseWorkload
	}
}

// sortObjects orders objects by phase, keeping the manifest's order within a phase.
func sortObjects(objs []*unstructured.Unstructured, custom func(schema.GroupKind) bool) {
	phase := phaseOf(custom)
	sort.SliceStable(objs, func(i, j int) bool { return phase(objs[i]) < phase(objs[j]) })
}

// sortForDeletion orders what is to be deleted by the same phases, reversed: custom resources and
// workloads first, then configuration, rights and identities, and the admission policies and
// bindings that confine them last, so that no right or workload outlives the policy confining it,
// even for a moment. obj says which object an item is; the given order is kept within a phase.
func sortForDeletion[T any](items []T, obj func(T) *unstructured.Unstructured, custom func(schema.GroupKind) bool) {
	phase := phaseOf(custom)
	sort.SliceStable(items, func(i, j int) bool { return phase(obj(items[i])) > phase(obj(items[j])) })
}
