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
// pod there as any of its service accounts. This admission policy closes that gap for the
// operator: whatever it creates or updates must be one of the objects it manages, and its
// Deployment must run CoreDNS's own service account without host access or privilege. It applies
// to the operator's requests only, and the operator has no rights over admission policies.
var policyValidations = []admissionregistrationv1.Validation{
	{
		Expression: `object.metadata.name == {"deployments": "` + CoreDNSDeployment + `", "services": "` + CoreDNSService +
			`", "configmaps": "` + CoreDNSConfigMap + `", "serviceaccounts": "` + CoreDNSServiceAccount + `"}[request.resource.resource]`,
		Message: "the CoreDNS operator may only create or change Deployment " + CoreDNSDeployment + ", Service " + CoreDNSService +
			", ConfigMap " + CoreDNSConfigMap + " and ServiceAccount " + CoreDNSServiceAccount,
	},
	{
		Expression: `request.resource.resource != "deployments" || (has(object.spec.template.spec.serviceAccountName) && object.spec.template.spec.serviceAccountName == "` + CoreDNSServiceAccount + `")`,
		Message:    "the CoreDNS Deployment must run as service account " + CoreDNSServiceAccount,
	},
	{
		Expression: `request.resource.resource != "deployments" || !(has(object.spec.template.spec.hostNetwork) && object.spec.template.spec.hostNetwork) && !(has(object.spec.template.spec.hostPID) && object.spec.template.spec.hostPID) && !(has(object.spec.template.spec.hostIPC) && object.spec.template.spec.hostIPC)`,
		Message:    "the CoreDNS Deployment may not use the host's network, process or IPC namespaces",
	},
	{
		Expression: `request.resource.resource != "deployments" || !has(object.spec.template.spec.volumes) || object.spec.template.spec.volumes.all(v, !has(v.hostPath))`,
		Message:    "the CoreDNS Deployment may not mount host paths",
	},
	{
		Expression: `request.resource.resource != "deployments" || object.spec.template.spec.containers.all(c, !has(c.securityContext) || !has(c.securityContext.privileged) || !c.securityContext.privileged)`,
		Message:    "the CoreDNS Deployment may not run privileged containers",
	},
}

// PolicyObjects are the ValidatingAdmissionPolicy and its binding that confine the operator.
func PolicyObjects() []runtime.Object {
	fail := admissionregistrationv1.Fail
	rules := []admissionregistrationv1.NamedRuleWithOperations{
		namedRule("apps", "deployments"),
		namedRule("", "services", "configmaps", "serviceaccounts"),
	}
	return []runtime.Object{
		&admissionregistrationv1.ValidatingAdmissionPolicy{
			TypeMeta:   metav1.TypeMeta{APIVersion: "admissionregistration.k8s.io/v1", Kind: "ValidatingAdmissionPolicy"},
			ObjectMeta: metav1.ObjectMeta{Name: PolicyName, Labels: Labels()},
			Spec: admissionregistrationv1.ValidatingAdmissionPolicySpec{
				FailurePolicy:    &fail,
				MatchConstraints: &admissionregistrationv1.MatchResources{ResourceRules: rules},
				MatchConditions: []admissionregistrationv1.MatchCondition{{
					Name:       "operator-requests-only",
					Expression: `request.userInfo.username == "` + Username + `"`,
				}},
				Validations: policyValidations,
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
func PolicyManifest() ([]byte, error) {
	return manifest(PolicyObjects())
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
