package addons

import (
	"fmt"
	"sort"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"k8s.io/kops/pkg/model/components/corednsoperator"
)

// packageObject is one object kops takes from an operator package. Everything that grants rights
// or admission (Roles, bindings, admission policies, webhooks) kops generates itself; a package
// holding anything else, even a harmless-looking Secret, is refused: a tampered package must not
// be able to widen the operator's rights or switch its confinement off.
type packageObject struct {
	apiVersion, kind, namespace, name string
	// check looks at the content of an object whose kind and name are expected.
	check func(*unstructured.Unstructured) error
}

var operatorPackageObjects = []packageObject{
	{apiVersion: "v1", kind: "Namespace", name: corednsoperator.Namespace},
	{apiVersion: "apiextensions.k8s.io/v1", kind: "CustomResourceDefinition", name: corednsoperator.CRDName, check: checkOperatorCRD},
	{apiVersion: "v1", kind: "ServiceAccount", namespace: corednsoperator.Namespace, name: corednsoperator.ServiceAccount},
	{apiVersion: "apps/v1", kind: "Deployment", namespace: corednsoperator.Namespace, name: corednsoperator.DeploymentName, check: checkOperatorPod},
}

// operatorDeploymentEntry is the one object a package must hold.
var operatorDeploymentEntry = &operatorPackageObjects[len(operatorPackageObjects)-1]

func describeObject(obj *unstructured.Unstructured) string {
	name := obj.GetName()
	if ns := obj.GetNamespace(); ns != "" {
		name = ns + "/" + name
	}
	return obj.GetAPIVersion() + " " + obj.GetKind() + " " + name
}

// expectedPackageObject finds the allowed object obj is, or says why it is none of them.
func expectedPackageObject(obj *unstructured.Unstructured) (*packageObject, error) {
	for i := range operatorPackageObjects {
		want := &operatorPackageObjects[i]
		if obj.GetAPIVersion() == want.apiVersion && obj.GetKind() == want.kind && obj.GetNamespace() == want.namespace && obj.GetName() == want.name {
			return want, nil
		}
	}
	var allowed []string
	for _, want := range operatorPackageObjects {
		name := want.name
		if want.namespace != "" {
			name = want.namespace + "/" + name
		}
		allowed = append(allowed, want.apiVersion+" "+want.kind+" "+name)
	}
	return nil, fmt.Errorf("object %s is not allowed in an operator package: kops takes only %s from it and generates the rights and admission policy itself",
		describeObject(obj), strings.Join(allowed, ", "))
}

// checkOperatorCRD refuses a conversion webhook: the API server would send every CoreDNS object to
// whatever address the package names.
func checkOperatorCRD(obj *unstructured.Unstructured) error {
	strategy, _, _ := unstructured.NestedString(obj.Object, "spec", "conversion", "strategy")
	if strategy != "" && strategy != "None" {
		return fmt.Errorf("spec.conversion.strategy: %q is not allowed, only None", strategy)
	}
	return nil
}

// checkOperatorPod keeps the operator's pod off the node: the rights kops grants the operator are
// confined, but a pod with host access would not need them.
func checkOperatorPod(obj *unstructured.Unstructured) error {
	if err := checkOperatorIdentity(obj); err != nil {
		return err
	}
	spec, _, _ := unstructured.NestedMap(obj.Object, "spec", "template", "spec")
	var problems []string
	for _, field := range []string{"hostNetwork", "hostPID", "hostIPC", "nodeName", "volumes", "initContainers", "ephemeralContainers"} {
		if _, set := spec[field]; set {
			problems = append(problems, "spec.template.spec."+field+": not allowed")
		}
	}
	containers, _, _ := unstructured.NestedSlice(spec, "containers")
	for i, c := range containers {
		container, _ := c.(map[string]interface{})
		path := fmt.Sprintf("spec.template.spec.containers[%d]", i)
		if privileged, _, _ := unstructured.NestedBool(container, "securityContext", "privileged"); privileged {
			problems = append(problems, path+".securityContext.privileged: not allowed")
		}
		if escalation, found, _ := unstructured.NestedBool(container, "securityContext", "allowPrivilegeEscalation"); found && escalation {
			problems = append(problems, path+".securityContext.allowPrivilegeEscalation: must be false")
		}
		if add, _, _ := unstructured.NestedSlice(container, "securityContext", "capabilities", "add"); len(add) > 0 {
			problems = append(problems, path+".securityContext.capabilities.add: not allowed")
		}
		for _, field := range []string{"envFrom", "volumeMounts", "volumeDevices"} {
			if _, set := container[field]; set {
				problems = append(problems, path+"."+field+": not allowed")
			}
		}
		env, _, _ := unstructured.NestedSlice(container, "env")
		for j, e := range env {
			if m, _ := e.(map[string]interface{}); m != nil && m["valueFrom"] != nil {
				problems = append(problems, fmt.Sprintf("%s.env[%d].valueFrom: not allowed", path, j))
			}
		}
		ports, _, _ := unstructured.NestedSlice(container, "ports")
		for j, p := range ports {
			if m, _ := p.(map[string]interface{}); m != nil && m["hostPort"] != nil {
				problems = append(problems, fmt.Sprintf("%s.ports[%d].hostPort: not allowed", path, j))
			}
		}
	}
	if len(problems) > 0 {
		return fmt.Errorf("the operator Deployment may not reach the node or Secrets: %s", strings.Join(problems, "; "))
	}
	return nil
}

// controlPrefixes are the label and annotation prefixes through which kops and channels steer what
// happens to an object (a handover on retirement, an enforcement probe). They are kops's to set: a
// package setting addon.kops.k8s.io/handover-to on its Deployment would keep the operator running
// after the flag is turned off.
var controlPrefixes = []string{"addon.kops.k8s.io/", "channels.kops.k8s.io/", "addons.k8s.io/"}

// checkNoControlMarks refuses a package object that carries one of kops's control labels or
// annotations.
func checkNoControlMarks(obj *unstructured.Unstructured) error {
	var found []string
	for what, m := range map[string]map[string]string{"metadata.annotations": obj.GetAnnotations(), "metadata.labels": obj.GetLabels()} {
		for k := range m {
			for _, prefix := range controlPrefixes {
				if strings.HasPrefix(k, prefix) {
					found = append(found, what+"["+k+"]")
				}
			}
		}
	}
	if len(found) == 0 {
		return nil
	}
	sort.Strings(found)
	return fmt.Errorf("%s: not allowed: kops and channels set these", strings.Join(found, ", "))
}
