package corednsoperator

import (
	"bytes"
	"encoding/json"
	"fmt"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/yaml"
)

// PolicyName names the admission policy and its binding.
const PolicyName = "coredns-operator-scope"

// Username is the identity the operator's requests carry.
const Username = "system:serviceaccount:" + Namespace + ":" + ServiceAccount

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
// may write in kube-system. Its lease and the status of its instructions are left to RBAC.
func policyRules() []admissionregistrationv1.NamedRuleWithOperations {
	return []admissionregistrationv1.NamedRuleWithOperations{
		namedRule("apps", "deployments"),
		namedRule("", "services", "configmaps", "serviceaccounts", "events"),
		namedRule("events.k8s.io", "events"),
	}
}

// PolicyObjects are the ValidatingAdmissionPolicy and its binding that confine the operator to s.
func PolicyObjects(s *Scope) []runtime.Object {
	fail := admissionregistrationv1.Fail
	return []runtime.Object{
		&admissionregistrationv1.ValidatingAdmissionPolicy{
			TypeMeta:   metav1.TypeMeta{APIVersion: "admissionregistration.k8s.io/v1", Kind: "ValidatingAdmissionPolicy"},
			ObjectMeta: metav1.ObjectMeta{Name: PolicyName, Labels: Labels()},
			Spec: admissionregistrationv1.ValidatingAdmissionPolicySpec{
				FailurePolicy:    &fail,
				MatchConstraints: &admissionregistrationv1.MatchResources{ResourceRules: policyRules()},
				MatchConditions: []admissionregistrationv1.MatchCondition{{
					Name:       "operator-requests-only",
					Expression: `request.userInfo.username == "` + Username + `"`,
				}},
				Validations: s.validations(),
			},
		},
		&admissionregistrationv1.ValidatingAdmissionPolicyBinding{
			TypeMeta:   metav1.TypeMeta{APIVersion: "admissionregistration.k8s.io/v1", Kind: "ValidatingAdmissionPolicyBinding"},
			ObjectMeta: metav1.ObjectMeta{Name: PolicyName, Labels: Labels()},
			Spec: admissionregistrationv1.ValidatingAdmissionPolicyBindingSpec{
				PolicyName:        PolicyName,
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

func manifest(objects []runtime.Object) ([]byte, error) {
	var b bytes.Buffer
	for i, obj := range objects {
		y, err := marshalWithoutStatus(obj)
		if err != nil {
			return nil, fmt.Errorf("marshalling %s: %w", obj.GetObjectKind().GroupVersionKind().Kind, err)
		}
		if i > 0 {
			b.WriteString("---\n")
		}
		b.Write(y)
	}
	return b.Bytes(), nil
}

// marshalWithoutStatus renders an object as YAML without the empty status that typed structs carry:
// status is the server's to write, never part of a manifest.
func marshalWithoutStatus(obj runtime.Object) ([]byte, error) {
	j, err := json.Marshal(obj)
	if err != nil {
		return nil, err
	}
	var tree map[string]interface{}
	if err := json.Unmarshal(j, &tree); err != nil {
		return nil, err
	}
	delete(tree, "status")
	return yaml.Marshal(tree)
}
