package operator

import (
	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// RBAC cannot limit create by name, and whoever may create a Deployment in a namespace may run a
// pod there as any of its service accounts, with any image, volume or privilege. Two admission
// policies close that gap for the operator; both apply to its requests only, and the operator has
// no rights over admission policies nor over its instructions' spec.
//
//   - The scope policy (Descriptor.PolicyName) keeps it to the objects it manages, by name, and
//     to events about them, for every create and update it makes of those kinds.
//   - The exact policy (ExactPolicyName) admits a managed object only equal as a whole to what kops
//     renders for the cluster (Scope), but for named holes bound to its instructions: the policy's
//     params, the instructions object kops writes. It matches the managed objects by name only,
//     because the API server looks its params up before it evaluates who is asking: were the
//     instructions missing, the binding (Deny) refuses every request it matches, and the managed
//     objects are all it matches.

// ExactPolicyName names the policy (and binding) that compares the managed objects whole.
func (d *Descriptor) ExactPolicyName() string { return d.PolicyName + "-exact" }

// scopeRules are the requests the scope policy sees: creates and updates of every kind the
// operator manages and of events, one rule per API group in order of first appearance. Its lease
// and the status of its instructions are left to RBAC.
func (d *Descriptor) scopeRules() []admissionregistrationv1.NamedRuleWithOperations {
	var groups []string
	resources := map[string][]string{}
	add := func(group, resource string) {
		if _, seen := resources[group]; !seen {
			groups = append(groups, group)
		}
		resources[group] = append(resources[group], resource)
	}
	for _, m := range d.Managed {
		k := managedKinds[m.Kind]
		add(k.group, k.resource)
	}
	add("", "events")
	add("events.k8s.io", "events")
	var out []admissionregistrationv1.NamedRuleWithOperations
	for _, g := range groups {
		out = append(out, namedRule(g, nil, resources[g]...))
	}
	return out
}

// exactRules are the requests the exact policy sees: creates and updates of each managed object, by
// name, in the watch namespace.
func (d *Descriptor) exactRules() *admissionregistrationv1.MatchResources {
	var rules []admissionregistrationv1.NamedRuleWithOperations
	for _, m := range d.Managed {
		k := managedKinds[m.Kind]
		rules = append(rules, namedRule(k.group, []string{m.Name}, k.resource))
	}
	return &admissionregistrationv1.MatchResources{
		NamespaceSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"kubernetes.io/metadata.name": d.WatchNamespace}},
		ResourceRules:     rules,
	}
}

// PolicyObjects are the scope and exact policies and their bindings that confine the operator to s.
func PolicyObjects(s *Scope) []runtime.Object {
	d := s.Descriptor
	scopeChecks, exactChecks, vars := s.checks()
	var variables []admissionregistrationv1.Variable
	for _, v := range vars {
		variables = append(variables, admissionregistrationv1.Variable{Name: v.name, Expression: v.expression})
	}
	deny := admissionregistrationv1.DenyAction
	scope := d.policy(d.PolicyName, &admissionregistrationv1.MatchResources{ResourceRules: d.scopeRules()}, nil, nil, validations(scopeChecks))
	exact := d.policy(d.ExactPolicyName(), d.exactRules(), &admissionregistrationv1.ParamKind{APIVersion: d.CRD.APIVersion(), Kind: d.CRD.Kind},
		variables, validations(exactChecks))
	return []runtime.Object{
		scope, d.binding(d.PolicyName, nil),
		// The instructions kops writes are the params: without them, nothing it matches is admitted.
		exact, d.binding(d.ExactPolicyName(), &admissionregistrationv1.ParamRef{Name: d.Instructions, Namespace: d.WatchNamespace, ParameterNotFoundAction: &deny}),
	}
}

func (d *Descriptor) policy(name string, match *admissionregistrationv1.MatchResources, params *admissionregistrationv1.ParamKind,
	variables []admissionregistrationv1.Variable, validations []admissionregistrationv1.Validation) *admissionregistrationv1.ValidatingAdmissionPolicy {
	fail := admissionregistrationv1.Fail
	return &admissionregistrationv1.ValidatingAdmissionPolicy{
		TypeMeta:   metav1.TypeMeta{APIVersion: "admissionregistration.k8s.io/v1", Kind: "ValidatingAdmissionPolicy"},
		ObjectMeta: metav1.ObjectMeta{Name: name, Labels: d.Labels()},
		Spec: admissionregistrationv1.ValidatingAdmissionPolicySpec{
			FailurePolicy:    &fail,
			ParamKind:        params,
			MatchConstraints: match,
			MatchConditions: []admissionregistrationv1.MatchCondition{{
				Name:       "operator-requests-only",
				Expression: `request.userInfo.username == ` + celString(d.Username()),
			}},
			Variables:   variables,
			Validations: validations,
		},
	}
}

func (d *Descriptor) binding(name string, params *admissionregistrationv1.ParamRef) *admissionregistrationv1.ValidatingAdmissionPolicyBinding {
	return &admissionregistrationv1.ValidatingAdmissionPolicyBinding{
		TypeMeta:   metav1.TypeMeta{APIVersion: "admissionregistration.k8s.io/v1", Kind: "ValidatingAdmissionPolicyBinding"},
		ObjectMeta: metav1.ObjectMeta{Name: name, Labels: d.Labels()},
		Spec: admissionregistrationv1.ValidatingAdmissionPolicyBindingSpec{
			PolicyName:        name,
			ParamRef:          params,
			ValidationActions: []admissionregistrationv1.ValidationAction{admissionregistrationv1.Deny},
		},
	}
}

// validations guard each check by its resource (and namespace), so a check applies to its kind only.
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

func namedRule(group string, names []string, resources ...string) admissionregistrationv1.NamedRuleWithOperations {
	return admissionregistrationv1.NamedRuleWithOperations{
		ResourceNames: names,
		RuleWithOperations: admissionregistrationv1.RuleWithOperations{
			Operations: []admissionregistrationv1.OperationType{admissionregistrationv1.Create, admissionregistrationv1.Update},
			Rule:       admissionregistrationv1.Rule{APIGroups: []string{group}, APIVersions: []string{"v1"}, Resources: resources},
		}}
}

// PolicyManifest is PolicyObjects as a YAML stream.
func PolicyManifest(s *Scope) ([]byte, error) {
	return manifest(PolicyObjects(s))
}
