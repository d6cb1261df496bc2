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

// Prerequisites are objects an addon's pods need that no operator may write (a ClusterRole, its
// bindings, an APIService). kops writes them in an addon of its own applied before the operator's,
// and the operator holds no right on them. validatePrerequisites refuses whatever would hand them
// to the operator or let them grant more than reading: bindings only of the addon's own
// ServiceAccounts (never the operator or a group) to prerequisite or read-only built-in roles;
// roles with only get, list and watch; APIServices routing only to a managed Service; budgets
// selecting only their workload's pods.

// prerequisiteKinds maps apiVersion/kind to group and resource.
var prerequisiteKinds = map[string][2]string{
	"rbac.authorization.k8s.io/v1/ClusterRole":        {"rbac.authorization.k8s.io", "clusterroles"},
	"rbac.authorization.k8s.io/v1/ClusterRoleBinding": {"rbac.authorization.k8s.io", "clusterrolebindings"},
	"rbac.authorization.k8s.io/v1/RoleBinding":        {"rbac.authorization.k8s.io", "rolebindings"},
	"apiregistration.k8s.io/v1/APIService":            {"apiregistration.k8s.io", "apiservices"},
	// A budget grants nothing; it keeps draining nodes from taking the addon down.
	"policy/v1/PodDisruptionBudget": {"policy", "poddisruptionbudgets"},
}

var namespacedPrerequisites = map[string]bool{"RoleBinding": true, "PodDisruptionBudget": true}

// readOnlyBuiltInRoles are built-in roles a prerequisite binding may name; none writes a stored
// object. An aggregated API server needs both to authenticate and authorize its callers.
var readOnlyBuiltInRoles = map[string]bool{
	"ClusterRole/system:auth-delegator":              true,
	"Role/extension-apiserver-authentication-reader": true,
}

func (d *Descriptor) PrerequisitesAddon() string {
	return "prerequisites." + strings.TrimPrefix(d.AddonName, "operator.")
}

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

// unstructuredDropEmpty removes the null creationTimestamp a typed object marshals.
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

// readOnlyRules refuses more than get, list and watch, wildcards, secrets (reading every Secret
// is reading every ServiceAccount's token) and an aggregationRule, which could pull in
// cluster-admin's rules where no check here sees them.
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
// that is neither a prerequisite nor in readOnlyBuiltInRoles.
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

// budgetProblems refuses a budget not named for a managed workload, or whose selector could reach
// other pods. The descriptor lacks the workload's selector; checkBudgetSelectors compares it once
// rendered.
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

func (d *Descriptor) budgetWorkload(name string) *operator.Managed {
	for i, m := range d.Managed {
		if (m.Kind == "Deployment" || m.Kind == "DaemonSet") && m.Name == name {
			return &d.Managed[i]
		}
	}
	return nil
}

// checkBudgetSelectors requires each budget's matchLabels to equal its rendered workload's.
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
