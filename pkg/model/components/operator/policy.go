package operator

import (
	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// RBAC cannot limit create by name, and whoever may create a Deployment in a namespace may run a
// pod there as any of its service accounts, with any image, volume or privilege. This admission
// policy closes that gap for the operator with an allow-list: whatever it creates or updates must
// be one of the objects it manages, shaped in every security-relevant field like the objects kops's
// built-in addon renders for the cluster (Scope). It applies to the operator's requests only, and
// the operator has no rights over admission policies.
func (s *Scope) validations() []admissionregistrationv1.Validation {
	var out []admissionregistrationv1.Validation
	for _, c := range s.checks() {
		guard := `request.resource.group != ` + celString(c.group) + ` || request.resource.resource != ` + celString(c.resource)
		if c.namespace != "" {
			guard += ` || request.namespace != ` + celString(c.namespace)
		}
		out = append(out, admissionregistrationv1.Validation{Expression: guard + ` || (` + c.expression + `)`, Message: c.message})
	}
	return out
}

// policyRules are the requests the policy sees: creates and updates of everything the operator
// may write in its watch namespace, one rule per API group in order of first appearance. Its lease
// and the status of its instructions are left to RBAC.
func (d *Descriptor) policyRules() []admissionregistrationv1.NamedRuleWithOperations {
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
		out = append(out, namedRule(g, resources[g]...))
	}
	return out
}

// PolicyObjects are the ValidatingAdmissionPolicy and its binding that confine the operator to s.
func PolicyObjects(s *Scope) []runtime.Object {
	d := s.Descriptor
	fail := admissionregistrationv1.Fail
	return []runtime.Object{
		&admissionregistrationv1.ValidatingAdmissionPolicy{
			TypeMeta:   metav1.TypeMeta{APIVersion: "admissionregistration.k8s.io/v1", Kind: "ValidatingAdmissionPolicy"},
			ObjectMeta: metav1.ObjectMeta{Name: d.PolicyName, Labels: d.Labels()},
			Spec: admissionregistrationv1.ValidatingAdmissionPolicySpec{
				FailurePolicy:    &fail,
				MatchConstraints: &admissionregistrationv1.MatchResources{ResourceRules: d.policyRules()},
				MatchConditions: []admissionregistrationv1.MatchCondition{{
					Name:       "operator-requests-only",
					Expression: `request.userInfo.username == ` + celString(d.Username()),
				}},
				Validations: s.validations(),
			},
		},
		&admissionregistrationv1.ValidatingAdmissionPolicyBinding{
			TypeMeta:   metav1.TypeMeta{APIVersion: "admissionregistration.k8s.io/v1", Kind: "ValidatingAdmissionPolicyBinding"},
			ObjectMeta: metav1.ObjectMeta{Name: d.PolicyName, Labels: d.Labels()},
			Spec: admissionregistrationv1.ValidatingAdmissionPolicyBindingSpec{
				PolicyName:        d.PolicyName,
				ValidationActions: []admissionregistrationv1.ValidationAction{admissionregistrationv1.Deny},
			},
		},
	}
}

func namedRule(group string, resources ...string) admissionregistrationv1.NamedRuleWithOperations {
	return admissionregistrationv1.NamedRuleWithOperations{RuleWithOperations: admissionregistrationv1.RuleWithOperations{
		Operations: []admissionregistrationv1.OperationType{admissionregistrationv1.Create, admissionregistrationv1.Update},
		Rule:       admissionregistrationv1.Rule{APIGroups: []string{group}, APIVersions: []string{"v1"}, Resources: resources},
	}}
}

// PolicyManifest is PolicyObjects as a YAML stream.
func PolicyManifest(s *Scope) ([]byte, error) {
	return manifest(PolicyObjects(s))
}
