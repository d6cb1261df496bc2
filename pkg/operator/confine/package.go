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

// PackageObject is one object an operator's channel package may hold. kops generates everything
// that grants rights or admission itself. It also renders the Namespace, CRD and ServiceAccount; a
// package may carry a copy only if it equals kops's object (older packages did), so a tampered
// copy, such as a cloud role annotation on the ServiceAccount, is refused. The Deployment is the
// package's and must pass an allow-list.
type PackageObject struct {
	APIVersion, Kind, Namespace, Name string
	// Rendered is kops's object without the addon's labels; nil for the Deployment.
	Rendered map[string]interface{}
	// allowList is set when Rendered is nil.
	allowList shape
}

// Problems says why obj is not acceptable as this object; nil if it is.
func (p PackageObject) Problems(obj map[string]interface{}) error {
	if p.Rendered != nil {
		return differencesError(p.Kind, Differences(p.Rendered, obj))
	}
	return problemsError(p.allowList("", obj))
}

// PackageObjects are the objects an operator package may hold, in the order kops writes them.
// Only the Deployment is required.
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

func (d *Descriptor) packageLabels() map[string]string {
	return map[string]string{"app.kubernetes.io/name": d.DeploymentName, channelsapi.LabelManagedBy: "kops"}
}

// namespaceObject enforces the restricted Pod Security Standard, so no pod there can reach the node.
func (d *Descriptor) namespaceObject() map[string]interface{} {
	labels := stringsObject(d.packageLabels())
	labels["pod-security.kubernetes.io/enforce"] = "restricted"
	return map[string]interface{}{
		"apiVersion": "v1",
		"kind":       "Namespace",
		"metadata":   map[string]interface{}{"name": d.Namespace, "labels": labels},
	}
}

// serviceAccountObject automounts no token (the operator's pod opts in) and carries no
// annotation: one such as eks.amazonaws.com/role-arn would hand the operator a cloud role.
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

// metadata allows a name, namespace, labels and annotations; kops's control marks are refused
// separately.
func metadata(labels shape) shape {
	return fields(map[string]shape{"name": anyString, "namespace": anyString, "labels": labels, "annotations": anyStringMap}, "name")
}

func (d *Descriptor) podLabels() map[string]string {
	return map[string]string{"k8s-app": d.DeploymentName, "app.kubernetes.io/name": d.DeploymentName, channelsapi.LabelManagedBy: "kops"}
}
