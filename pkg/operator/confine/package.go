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

import channelsapi "k8s.io/kops/channels/pkg/api"

// PackageObject is one object an operator's channel package may hold. Everything that grants
// rights or admission (Roles, bindings, admission policies, webhooks) kops generates itself, so a
// package holds nothing else.
//
// The operator's Namespace, its CRD and its ServiceAccount are kops's: kops renders them itself
// (Rendered), and a package may carry a copy only if it is exactly kops's object, field for field;
// the copy is then dropped. That keeps packages written for earlier releases, which carried all
// three, working while a tampered copy (a second CRD version preserving unknown fields, a short
// name, an IAM role annotation on the ServiceAccount) is refused with every difference. The
// Deployment is the package's: it names the operator's version, and passes an allow-list.
type PackageObject struct {
	APIVersion, Kind, Namespace, Name string
	// Rendered is the object kops renders, as decoded YAML, without the labels every addon object
	// gets (the addon's name); nil for the Deployment.
	Rendered map[string]interface{}
	// allowList returns every problem with the package's object, each with its field path; set
	// when Rendered is nil.
	allowList shape
}

// Problems says why obj, found in a package, is not acceptable as this object, or returns nil.
func (p PackageObject) Problems(obj map[string]interface{}) error {
	if p.Rendered != nil {
		return differencesError(p.Kind, Differences(p.Rendered, obj))
	}
	return problemsError(p.allowList("", obj))
}

// PackageObjects are the objects an operator package may hold, in the order kops writes them: the
// Namespace, the CRD and the ServiceAccount kops renders, then the Deployment, the one object a
// package must hold.
func (d *Descriptor) PackageObjects() ([]PackageObject, error) {
	crd, err := d.customResourceDefinitionObject()
	if err != nil {
		return nil, err
	}
	return []PackageObject{
		{APIVersion: "v1", Kind: "Namespace", Name: d.Namespace, Rendered: d.namespaceObject()},
		{APIVersion: "apiextensions.k8s.io/v1", Kind: "CustomResourceDefinition", Name: d.CRD.Name(), Rendered: crd},
		{APIVersion: "v1", Kind: "ServiceAccount", Namespace: d.Namespace, Name: d.ServiceAccount, Rendered: d.serviceAccountObject()},
		{APIVersion: "apps/v1", Kind: "Deployment", Namespace: d.Namespace, Name: d.DeploymentName, allowList: d.deploymentShape()},
	}, nil
}

// packageLabels are the labels of the objects kops renders for the operator package, before the
// addon's own labels are added to every object of the addon.
func (d *Descriptor) packageLabels() map[string]string {
	return map[string]string{"app.kubernetes.io/name": d.DeploymentName, channelsapi.LabelManagedBy: "kops"}
}

// namespaceObject is the operator's namespace. It enforces the restricted Pod Security Standard,
// so no pod there, the operator's included, can reach the node.
func (d *Descriptor) namespaceObject() map[string]interface{} {
	labels := stringsObject(d.packageLabels())
	labels["pod-security.kubernetes.io/enforce"] = "restricted"
	return map[string]interface{}{
		"apiVersion": "v1",
		"kind":       "Namespace",
		"metadata":   map[string]interface{}{"name": d.Namespace, "labels": labels},
	}
}

// serviceAccountObject is the operator's ServiceAccount: nothing but its name and labels, and no
// token for whatever else uses it (the operator's pod opts in). No annotation either: one such as
// eks.amazonaws.com/role-arn would hand the operator a cloud role.
func (d *Descriptor) serviceAccountObject() map[string]interface{} {
	return map[string]interface{}{
		"apiVersion": "v1",
		"kind":       "ServiceAccount",
		"metadata": map[string]interface{}{
			"name": d.ServiceAccount, "namespace": d.Namespace, "labels": stringsObject(d.packageLabels()),
		},
		"automountServiceAccountToken": false,
	}
}

// metadata allows a name, namespace, labels and annotations; kops's control marks among them are
// refused separately, for every package object.
func metadata(labels shape) shape {
	return fields(map[string]shape{"name": anyString, "namespace": anyString, "labels": labels, "annotations": anyStringMap}, "name")
}

func (d *Descriptor) podLabels() map[string]string {
	return map[string]string{"k8s-app": d.DeploymentName, "app.kubernetes.io/name": d.DeploymentName, channelsapi.LabelManagedBy: "kops"}
}
