package operator

// PackageObject is one object kops takes from an operator's channel package, and the allow-list
// its content must pass. Everything that grants rights or admission (Roles, bindings, admission
// policies, webhooks) kops generates itself, so a package holds nothing else.
type PackageObject struct {
	APIVersion, Kind, Namespace, Name string
	// Check returns every problem with the object, each with its field path.
	Check func(obj map[string]interface{}) error
}

// PackageObjects are the objects an operator package may hold, the Deployment last: the one it
// must hold.
func (d *Descriptor) PackageObjects() []PackageObject {
	return []PackageObject{
		{"v1", "Namespace", "", d.Namespace, d.check(d.namespaceShape())},
		{"apiextensions.k8s.io/v1", "CustomResourceDefinition", "", d.CRD.Name(), d.checkCRD},
		{"v1", "ServiceAccount", d.Namespace, d.ServiceAccount, d.check(d.serviceAccountShape())},
		{"apps/v1", "Deployment", d.Namespace, d.DeploymentName, d.check(d.deploymentShape())},
	}
}

func (d *Descriptor) check(s shape) func(map[string]interface{}) error {
	return func(obj map[string]interface{}) error { return problemsError(s("", obj)) }
}

// metadata allows a name, namespace, labels and annotations; kops's control marks among them are
// refused separately, for every package object.
func metadata(labels shape) shape {
	return fields(map[string]shape{"name": anyString, "namespace": anyString, "labels": labels, "annotations": anyStringMap}, "name")
}

func (d *Descriptor) podLabels() map[string]string {
	return map[string]string{"k8s-app": d.DeploymentName, "app.kubernetes.io/name": d.DeploymentName, "app.kubernetes.io/managed-by": "kops"}
}

// namespaceShape keeps the operator's namespace under the restricted Pod Security Standard: a
// package may not relax it, which would let a pod there reach the node.
func (d *Descriptor) namespaceShape() shape {
	return fields(map[string]shape{
		"apiVersion": anyString, "kind": anyString,
		"metadata": fields(map[string]shape{"name": anyString, "labels": fields(map[string]shape{
			"app.kubernetes.io/name":             oneOf(d.DeploymentName),
			"app.kubernetes.io/managed-by":       oneOf("kops"),
			"pod-security.kubernetes.io/enforce": oneOf("restricted"),
		}, "pod-security.kubernetes.io/enforce")}, "name", "labels"),
	}, "metadata")
}

func (d *Descriptor) serviceAccountShape() shape {
	return fields(map[string]shape{
		"apiVersion": anyString, "kind": anyString, "metadata": metadata(anyStringMap),
		"automountServiceAccountToken": anyBool,
	}, "metadata")
}

// checkCRD allows the CRD of the descriptor's kind only, and refuses a conversion webhook: the API
// server would send every object of the kind to whatever address the package names. Its schema is
// the package's to say: it narrows what the operator accepts, never what it may do.
func (d *Descriptor) checkCRD(obj map[string]interface{}) error {
	spec, _ := obj["spec"].(map[string]interface{})
	names, _ := spec["names"].(map[string]interface{})
	var problems []string
	for _, f := range []struct {
		path string
		got  interface{}
		want string
	}{
		{"spec.group", spec["group"], d.CRD.Group},
		{"spec.names.plural", names["plural"], d.CRD.Resource},
		{"spec.names.kind", names["kind"], d.CRD.Kind},
		{"spec.scope", spec["scope"], "Namespaced"},
	} {
		problems = append(problems, oneOf(f.want)(f.path, f.got)...)
	}
	if conversion, ok := spec["conversion"]; ok {
		problems = append(problems, fields(map[string]shape{"strategy": oneOf("None")})("spec.conversion", conversion)...)
	}
	return problemsError(problems)
}
