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

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	channelsapi "k8s.io/kops/channels/pkg/api"
)

// RBAC cannot limit create by name, and whoever may create a Deployment may run a pod as any
// service account of its namespace with any image or privilege. Two admission policies, applying
// to the operator's requests only, close that gap: the scope policy keeps it to its objects by
// name, and the exact policy admits a managed object only equal to kops's rendering but for the
// holes bound to its instructions (the params). The exact policy matches the managed objects by
// name only: the API server resolves params before it checks who is asking, so with the
// instructions missing the binding denies every request it matches.

// scopeRules are the creates and updates of every managed kind, of events and of leases. The
// instructions' status is left to RBAC.
func (d *Descriptor) scopeRules() []admissionregistrationv1.NamedRuleWithOperations {
	type groupVersion struct{ group, version string }
	var order []groupVersion
	resources := map[groupVersion][]string{}
	add := func(group, version, resource string) {
		gv := groupVersion{group, version}
		if _, seen := resources[gv]; !seen {
			order = append(order, gv)
		}
		resources[gv] = append(resources[gv], resource)
	}
	for _, m := range d.Managed {
		k := kindOf(m.Kind)
		add(k.Group, k.Version, k.Resource)
	}
	add("", "v1", "events")
	add("events.k8s.io", "v1", "events")
	add("coordination.k8s.io", "v1", "leases")
	var out []admissionregistrationv1.NamedRuleWithOperations
	for _, gv := range order {
		out = append(out, namedRule(gv.group, gv.version, nil, resources[gv]...))
	}
	return out
}

// exactRules are the creates and updates, by name, of each managed object the instructions flow into.
func (s *Scope) exactRules() *admissionregistrationv1.MatchResources {
	d := s.Descriptor
	var rules []admissionregistrationv1.NamedRuleWithOperations
	for _, o := range s.Objects {
		if o.bindsParams(s.Params) {
			k := kindOf(o.Kind)
			rules = append(rules, namedRule(k.Group, k.Version, []string{o.Name}, k.Resource))
		}
	}
	return &admissionregistrationv1.MatchResources{
		NamespaceSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"kubernetes.io/metadata.name": d.WatchNamespace}},
		ResourceRules:     rules,
	}
}

// PolicyObjects are the scope policy and its binding and, when instructions flow into the managed
// objects, the exact policy and its binding.
func PolicyObjects(s *Scope) ([]runtime.Object, error) {
	d := s.Descriptor
	scope, exact := s.checks()
	scopeBinding, err := d.binding(d.PolicyName, nil, d.ProbeObject())
	if err != nil {
		return nil, err
	}
	out := []runtime.Object{
		d.policy(d.PolicyName, &admissionregistrationv1.MatchResources{ResourceRules: d.scopeRules()}, nil, variables(scope.vars), validations(scope.checks)),
		scopeBinding,
	}
	if len(exact.checks) == 0 {
		return out, nil
	}
	deny := admissionregistrationv1.DenyAction
	exactBinding, err := d.binding(d.ExactPolicyName(),
		&admissionregistrationv1.ParamRef{Name: d.Instructions, Namespace: d.WatchNamespace, ParameterNotFoundAction: &deny}, s.exactProbeObject())
	if err != nil {
		return nil, err
	}
	return append(out,
		d.policy(d.ExactPolicyName(), s.exactRules(), &admissionregistrationv1.ParamKind{APIVersion: d.CRD.APIVersion(), Kind: d.CRD.Kind},
			variables(exact.vars), validations(exact.checks)),
		exactBinding), nil
}

// exactProbeObject is the enforcement probe of the exact policy: a managed object's name, which the
// scope policy admits, with a label kops never renders, which the exact policy must refuse.
func (s *Scope) exactProbeObject() map[string]interface{} {
	for _, o := range s.Objects {
		if !o.bindsParams(s.Params) {
			continue
		}
		obj := map[string]interface{}{
			"apiVersion": o.Rendered["apiVersion"],
			"kind":       o.Kind,
			"metadata": map[string]interface{}{"name": o.Name, "namespace": s.Descriptor.WatchNamespace,
				"labels": map[string]interface{}{channelsapi.LabelEnforcementProbe: "true"}},
		}
		for k, v := range kindOf(o.Kind).ProbeBody {
			obj[k] = v
		}
		return obj
	}
	return nil
}

func variables(vars []variable) []admissionregistrationv1.Variable {
	var out []admissionregistrationv1.Variable
	for _, v := range vars {
		out = append(out, admissionregistrationv1.Variable{Name: v.name, Expression: v.expression})
	}
	return out
}

func (d *Descriptor) policy(name string, match *admissionregistrationv1.MatchResources, params *admissionregistrationv1.ParamKind,
	variables []admissionregistrationv1.Variable, validations []admissionregistrationv1.Validation) *admissionregistrationv1.ValidatingAdmissionPolicy {
	return userPolicy(name, d.Labels(), "operator-requests-only", d.Username(), match, params, variables, validations)
}

// userPolicy is a policy that applies to the requests of user alone (matched by name, as channels'
// enforcement probe requires), failing closed.
func userPolicy(name string, labels map[string]string, condition, user string, match *admissionregistrationv1.MatchResources,
	params *admissionregistrationv1.ParamKind, variables []admissionregistrationv1.Variable, validations []admissionregistrationv1.Validation) *admissionregistrationv1.ValidatingAdmissionPolicy {
	fail := admissionregistrationv1.Fail
	return &admissionregistrationv1.ValidatingAdmissionPolicy{
		TypeMeta:   metav1.TypeMeta{APIVersion: "admissionregistration.k8s.io/v1", Kind: "ValidatingAdmissionPolicy"},
		ObjectMeta: metav1.ObjectMeta{Name: name, Labels: labels},
		Spec: admissionregistrationv1.ValidatingAdmissionPolicySpec{
			FailurePolicy:    &fail,
			ParamKind:        params,
			MatchConstraints: match,
			MatchConditions: []admissionregistrationv1.MatchCondition{{
				Name:       condition,
				Expression: `request.userInfo.username == ` + celString(user),
			}},
			Variables:   variables,
			Validations: validations,
		},
	}
}

// binding carries the probe channels dry-runs as the operator, until the server denies it, before
// it applies what the policy confines.
func (d *Descriptor) binding(name string, params *admissionregistrationv1.ParamRef, probe map[string]interface{}) (*admissionregistrationv1.ValidatingAdmissionPolicyBinding, error) {
	return userBinding(name, d.Labels(), d.Username(), params, probe)
}

// userBinding binds policy name, denying, with the probe channels dry-runs as user.
func userBinding(name string, labels map[string]string, user string, params *admissionregistrationv1.ParamRef,
	probe map[string]interface{}) (*admissionregistrationv1.ValidatingAdmissionPolicyBinding, error) {
	annotation, err := (&channelsapi.EnforcementProbe{User: user, Object: probe}).Encode()
	if err != nil {
		return nil, fmt.Errorf("the enforcement probe of %s: %w", name, err)
	}
	return &admissionregistrationv1.ValidatingAdmissionPolicyBinding{
		TypeMeta: metav1.TypeMeta{APIVersion: "admissionregistration.k8s.io/v1", Kind: "ValidatingAdmissionPolicyBinding"},
		ObjectMeta: metav1.ObjectMeta{Name: name, Labels: labels,
			Annotations: map[string]string{channelsapi.EnforcementProbeAnnotation: annotation}},
		Spec: admissionregistrationv1.ValidatingAdmissionPolicyBindingSpec{
			PolicyName:        name,
			ParamRef:          params,
			ValidationActions: []admissionregistrationv1.ValidationAction{admissionregistrationv1.Deny},
		},
	}, nil
}

func validations(checks []check) []admissionregistrationv1.Validation {
	var out []admissionregistrationv1.Validation
	for _, c := range checks {
		guard := `request.resource.group != ` + celString(c.group) + ` || request.resource.resource != ` + celString(c.resource)
		if c.namespace != "" {
			guard += ` || request.namespace != ` + celString(c.namespace)
		}
		out = append(out, admissionregistrationv1.Validation{Expression: guard + ` || (` + c.expression + `)`, Message: c.message})
	}
	return out
}

func namedRule(group, version string, names []string, resources ...string) admissionregistrationv1.NamedRuleWithOperations {
	return admissionregistrationv1.NamedRuleWithOperations{
		ResourceNames: names,
		RuleWithOperations: admissionregistrationv1.RuleWithOperations{
			Operations: []admissionregistrationv1.OperationType{admissionregistrationv1.Create, admissionregistrationv1.Update},
			Rule:       admissionregistrationv1.Rule{APIGroups: []string{group}, APIVersions: []string{version}, Resources: resources},
		}}
}

func PolicyManifest(s *Scope) ([]byte, error) {
	objects, err := PolicyObjects(s)
	if err != nil {
		return nil, err
	}
	return manifest(objects)
}
