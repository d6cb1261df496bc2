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

package confine

import (
	"fmt"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/runtime"

	"k8s.io/kops/pkg/operator"
)

// Prerequisites are objects an addon's own pods need that no operator may write: the ClusterRole
// a metrics server reads nodes with, its bindings, the APIService that routes an API to its
// Service. kops renders them (Descriptor.Prerequisites) and writes them in an addon of its own,
// applied before the operator's (PrerequisitesAddon); the operator holds no right on any of them.
// validatePrerequisites refuses whatever would hand them to the operator or let them grant more
// than reading:
//
//   - only the kinds of prerequisiteKinds, each object once, named, in no namespace but a
//     RoleBinding's and a PodDisruptionBudget's (the watch namespace);
//   - no right of the operator, of any verb, on a prerequisite's resource;
//   - a binding binds only ServiceAccounts the operator manages (the addon's pods), never the
//     operator's own identity nor a group, to a role that is itself a prerequisite or one of
//     readOnlyBuiltInRoles;
//   - a ClusterRole grants only get, list and watch, without wildcards, nothing on secrets, and
//     aggregates no other role;
//   - an APIService routes only to a Service the operator manages, whose every field the exact
//     admission policy fixes;
//   - a PodDisruptionBudget is named for a workload the operator manages and selects by
//     matchLabels alone, never everything. The descriptor does not hold the workload's selector,
//     so Validate requires only that much; ScopeFromManifest, which holds the workload as
//     rendered, requires the budget's matchLabels to equal the workload's spec.selector.matchLabels.

// prerequisiteKinds are the kinds a prerequisite may have, by apiVersion/kind, with their resource.
var prerequisiteKinds = map[string][2]string{
	"rbac.authorization.k8s.io/v1/ClusterRole":        {"rbac.authorization.k8s.io", "clusterroles"},
	"rbac.authorization.k8s.io/v1/ClusterRoleBinding": {"rbac.authorization.k8s.io", "clusterrolebindings"},
	"rbac.authorization.k8s.io/v1/RoleBinding":        {"rbac.authorization.k8s.io", "rolebindings"},
	"apiregistration.k8s.io/v1/APIService":            {"apiregistration.k8s.io", "apiservices"},
	// A budget grants nothing: it bounds how many of the addon's pods an eviction may take, so
	// that draining nodes leaves the addon running. kops keeps it in every mode.
	"policy/v1/PodDisruptionBudget": {"policy", "poddisruptionbudgets"},
}

// namespacedPrerequisites are the prerequisite kinds that live in the watch namespace.
var namespacedPrerequisites = map[string]bool{"RoleBinding": true, "PodDisruptionBudget": true}

// readOnlyBuiltInRoles are roles Kubernetes creates that a prerequisite binding may name: each
// grants no write to a stored object. system:auth-delegator creates TokenReviews and
// SubjectAccessReviews (an aggregated API server asking the API server who a caller is and what
// it may do); extension-apiserver-authentication-reader (a Role in kube-system) reads the
// ConfigMap holding the client CA such a server checks callers with.
var readOnlyBuiltInRoles = map[string]bool{
	"ClusterRole/system:auth-delegator":              true,
	"Role/extension-apiserver-authentication-reader": true,
}

// PrerequisitesAddon names the addon kops writes the prerequisites in.
func (d *Descriptor) PrerequisitesAddon() string {
	return "prerequisites." + strings.TrimPrefix(d.AddonName, "operator.")
}

// PrerequisiteObjects are the prerequisites as JSON maps, in the descriptor's order.
func (d *Descriptor) PrerequisiteObjects() ([]map[string]interface{}, error) {
	var out []map[string]interface{}
	for i, o := range d.Prerequisites {
		obj, err := runtime.DefaultUnstructuredConverter.ToUnstructured(o)
		if err != nil {
			return nil, fmt.Errorf("Prerequisites[%d]: %w", i, err) //nolint:staticcheck // ST1005: starts with the field's name
		}
		unstructuredDropEmpty(obj)
		out = append(out, obj)
	}
	return out, nil
}

// unstructuredDropEmpty removes what a typed object marshals without being set (a null
// creationTimestamp), so that the written object holds only what the descriptor says.
func unstructuredDropEmpty(obj map[string]interface{}) {
	if md, ok := obj["metadata"].(map[string]interface{}); ok && md["creationTimestamp"] == nil {
		delete(md, "creationTimestamp")
	}
}

func (d *Descriptor) validatePrerequisites() []string {
	objects, err := d.PrerequisiteObjects()
	if err != nil {
		return []string{err.Error()}
	}
	var problems []string
	seen := map[string]bool{}
	for i, obj := range objects {
		where := fmt.Sprintf("Prerequisites[%d]", i)
		apiVersion, _ := obj["apiVersion"].(string)
		kind, _ := obj["kind"].(string)
		md, _ := obj["metadata"].(map[string]interface{})
		name, _ := md["name"].(string)
		namespace, _ := md["namespace"].(string)
		resource, ok := prerequisiteKinds[apiVersion+"/"+kind]
		switch {
		case !ok:
			problems = append(problems, fmt.Sprintf("%s: %s %s is not a prerequisite kind: ClusterRole, ClusterRoleBinding, RoleBinding, APIService or PodDisruptionBudget", where, apiVersion, kind))
			continue
		case name == "":
			problems = append(problems, where+".metadata.name: required")
		case seen[kind+"/"+namespace+"/"+name]:
			problems = append(problems, fmt.Sprintf("%s: a second %s %q", where, kind, name))
		}
		seen[kind+"/"+namespace+"/"+name] = true
		if want := map[bool]string{true: d.WatchNamespace}[namespacedPrerequisites[kind]]; namespace != want {
			problems = append(problems, fmt.Sprintf("%s.metadata.namespace: %q: must be %q", where, namespace, want))
		}
		for j, r := range d.Rights {
			if r.APIGroup == resource[0] && slices.Contains(r.Resources, resource[1]) {
				problems = append(problems, fmt.Sprintf("%s: Rights[%d] grants the operator %v on %s: kops writes prerequisites, the operator may not touch them", where, j, r.Verbs, resource[1]))
			}
		}
		switch kind {
		case "ClusterRole":
			problems = append(problems, readOnlyRules(where, obj)...)
		case "ClusterRoleBinding", "RoleBinding":
			problems = append(problems, d.bindingProblems(where, obj, objects)...)
		case "APIService":
			problems = append(problems, d.apiServiceProblems(where, obj)...)
		case "PodDisruptionBudget":
			problems = append(problems, d.budgetProblems(where, obj)...)
		}
	}
	return problems
}

// readOnlyRules refuses a rule granting more than get, list and watch, any wildcard, any rule on
// secrets (reading every Secret is reading every ServiceAccount's token), and an aggregationRule:
// the controller would fill the role with the rules of every ClusterRole its selector matches
// (kubernetes.io/bootstrapping: rbac-defaults holds cluster-admin's), which no check here sees.
func readOnlyRules(where string, obj map[string]interface{}) []string {
	var problems []string
	if _, ok := obj["aggregationRule"]; ok {
		problems = append(problems, where+".aggregationRule: not allowed: a prerequisite role holds only the rules it lists")
	}
	rules, _ := obj["rules"].([]interface{})
	for i, r := range rules {
		rule, _ := r.(map[string]interface{})
		at := fmt.Sprintf("%s.rules[%d]", where, i)
		for _, field := range []string{"apiGroups", "resources", "resourceNames", "nonResourceURLs"} {
			if slices.Contains(stringList(rule[field]), "*") {
				problems = append(problems, fmt.Sprintf("%s.%s: wildcards are not allowed", at, field))
			}
		}
		if slices.Contains(stringList(rule["resources"]), "secrets") {
			problems = append(problems, at+`.resources: "secrets": a prerequisite role may not read Secrets`)
		}
		for _, v := range stringList(rule["verbs"]) {
			if !readVerbs[v] {
				problems = append(problems, fmt.Sprintf("%s.verbs: %q: a prerequisite role may only read (get, list, watch)", at, v))
			}
		}
	}
	return problems
}

// bindingProblems refuses a binding of anything but the addon's own ServiceAccounts, or to a role
// that is neither a prerequisite nor read-only and built in.
func (d *Descriptor) bindingProblems(where string, obj map[string]interface{}, objects []map[string]interface{}) []string {
	var problems []string
	managed := map[string]bool{}
	for _, m := range d.Managed {
		if m.Kind == "ServiceAccount" {
			managed[m.Name] = true
		}
	}
	subjects, _ := obj["subjects"].([]interface{})
	if len(subjects) == 0 {
		problems = append(problems, where+".subjects: required")
	}
	for i, s := range subjects {
		subject, _ := s.(map[string]interface{})
		kind, _ := subject["kind"].(string)
		name, _ := subject["name"].(string)
		namespace, _ := subject["namespace"].(string)
		if kind != "ServiceAccount" || namespace != d.WatchNamespace || !managed[name] {
			problems = append(problems, fmt.Sprintf("%s.subjects[%d]: %s %s/%s: a prerequisite binds only a ServiceAccount the operator manages in %s, never the operator, a user or a group",
				where, i, kind, namespace, name, d.WatchNamespace))
		}
	}
	ref, _ := obj["roleRef"].(map[string]interface{})
	refKind, _ := ref["kind"].(string)
	refName, _ := ref["name"].(string)
	if readOnlyBuiltInRoles[refKind+"/"+refName] {
		return problems
	}
	for _, o := range objects {
		md, _ := o["metadata"].(map[string]interface{})
		if o["kind"] == refKind && refKind == "ClusterRole" && md["name"] == refName {
			return problems
		}
	}
	return append(problems, fmt.Sprintf("%s.roleRef: %s %q is neither a prerequisite ClusterRole nor a read-only built-in role", where, refKind, refName))
}

// apiServiceProblems refuses an APIService that routes anywhere but to a Service the operator
// manages in the watch namespace.
func (d *Descriptor) apiServiceProblems(where string, obj map[string]interface{}) []string {
	spec, _ := obj["spec"].(map[string]interface{})
	service, _ := spec["service"].(map[string]interface{})
	name, _ := service["name"].(string)
	namespace, _ := service["namespace"].(string)
	for _, m := range d.Managed {
		if m.Kind == "Service" && m.Name == name && namespace == d.WatchNamespace {
			return nil
		}
	}
	return []string{fmt.Sprintf("%s.spec.service: %s/%s: must be a Service the operator manages in %s", where, namespace, name, d.WatchNamespace)}
}

// budgetProblems refuses a PodDisruptionBudget that is not named for a workload the operator
// manages (a Deployment or DaemonSet of Managed) or whose selector could reach other pods: one
// with matchExpressions, or without matchLabels (an empty selector selects every pod of the
// namespace). checkBudgetSelectors compares the matchLabels with the workload's as rendered.
func (d *Descriptor) budgetProblems(where string, obj map[string]interface{}) []string {
	var problems []string
	md, _ := obj["metadata"].(map[string]interface{})
	name, _ := md["name"].(string)
	if d.budgetWorkload(name) == nil {
		problems = append(problems, fmt.Sprintf("%s.metadata.name: %q: a prerequisite budget is named for the Deployment or DaemonSet it drains, one the operator manages", where, name))
	}
	spec, _ := obj["spec"].(map[string]interface{})
	selector, _ := spec["selector"].(map[string]interface{})
	if _, ok := selector["matchExpressions"]; ok {
		problems = append(problems, where+".spec.selector.matchExpressions: not allowed: a prerequisite budget selects its workload's pods by matchLabels")
	}
	if labels, _ := selector["matchLabels"].(map[string]interface{}); len(labels) == 0 {
		problems = append(problems, where+".spec.selector.matchLabels: required: an empty selector selects every pod of the namespace")
	}
	return problems
}

// budgetWorkload is the managed Deployment or DaemonSet a budget named name is for, or nil.
func (d *Descriptor) budgetWorkload(name string) *operator.Managed {
	for i, m := range d.Managed {
		if (m.Kind == "Deployment" || m.Kind == "DaemonSet") && m.Name == name {
			return &d.Managed[i]
		}
	}
	return nil
}

// checkBudgetSelectors requires each prerequisite PodDisruptionBudget to select exactly the pods
// of its workload as rendered: its matchLabels equal to the workload's spec.selector.matchLabels.
func (s *Scope) checkBudgetSelectors() error {
	objects, err := s.Descriptor.PrerequisiteObjects()
	if err != nil {
		return err
	}
	for i, obj := range objects {
		if obj["kind"] != "PodDisruptionBudget" {
			continue
		}
		md, _ := obj["metadata"].(map[string]interface{})
		name, _ := md["name"].(string)
		workload := s.Descriptor.budgetWorkload(name)
		if workload == nil {
			return fmt.Errorf("Prerequisites[%d]: PodDisruptionBudget %q is for no Deployment or DaemonSet the operator manages", i, name) //nolint:staticcheck // ST1005: starts with the field's name
		}
		var rendered map[string]interface{}
		for _, o := range s.Objects {
			if o.Managed == *workload {
				rendered = o.Rendered
			}
		}
		got := selectorLabels(obj)
		want := selectorLabels(rendered)
		if len(want) == 0 || fmt.Sprint(got) != fmt.Sprint(want) {
			return fmt.Errorf("Prerequisites[%d].spec.selector.matchLabels: %v: must be the spec.selector.matchLabels of %s %s/%s as rendered, %v",
				i, got, workload.Kind, s.Descriptor.WatchNamespace, workload.Name, want)
		}
	}
	return nil
}

// selectorLabels is obj's spec.selector.matchLabels.
func selectorLabels(obj map[string]interface{}) map[string]string {
	spec, _ := obj["spec"].(map[string]interface{})
	selector, _ := spec["selector"].(map[string]interface{})
	return stringsOf(selector["matchLabels"])
}

func stringList(v interface{}) []string {
	list, _ := v.([]interface{})
	var out []string
	for _, e := range list {
		if s, ok := e.(string); ok {
			out = append(out, s)
		}
	}
	return out
}
