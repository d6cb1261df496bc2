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

// Package operator describes an addon operator as data: where it runs, which custom resource it
// reads, which objects it writes and what it is allowed to do. Everything that confines an
// operator (its Roles and RoleBindings, the admission policy, the allow-list for its channel
// package) and the rights table of the docs is generated from a Descriptor, so adding an operator
// means writing a Descriptor value, not another copy of the generators.
package operator

import (
	"fmt"
	"reflect"
	"strings"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	channelsapi "k8s.io/kops/channels/pkg/api"
	"k8s.io/kops/pkg/crdschema"
)

// Descriptor is one operator. Every name is required; Validate says which is missing.
type Descriptor struct {
	// Subject names what the operator runs in messages: "the <Subject> operator may only ...".
	Subject string
	// Names are the operator's names (NamesOf).
	Names
	// WatchNamespace holds the custom resource and every object the operator manages.
	WatchNamespace string
	// CRD is the kind of the operator's instructions; Instructions is the one object of it.
	CRD          CRD
	Instructions string
	// Managed are the objects the operator writes in WatchNamespace, in the order the admission
	// policy checks them. Only the kinds of ManagedKinds can be listed.
	Managed []Managed
	// MaxReplicas bounds the replica count of a managed Deployment.
	MaxReplicas int64
	// Rights is everything the operator may do, each right with its reason.
	Rights []Right
	// Pod is what the operator's own pod, taken from its channel package, may ask for.
	Pod PodAllowance
	// Prerequisites are what the addon's pods need that the operator may not write (ClusterRoles,
	// bindings, APIServices), rendered by kops and written in an addon of its own before the
	// operator's: see prerequisites.go.
	Prerequisites []runtime.Object
}

// CRD names the custom resource the operator reconciles and says how kops generates its
// CustomResourceDefinition (CustomResourceDefinition).
type CRD struct {
	Group, Version, Resource, Kind string
	// Type is the Go type of the custom resource: the CRD's schema is derived from it.
	Type reflect.Type
	// Fields adds what Type cannot say: descriptions and validations, by JSON path.
	Fields crdschema.Fields
	// Columns are the extra columns of kubectl get.
	Columns []apiextensionsv1.CustomResourceColumnDefinition
}

// Name is the CustomResourceDefinition's name, <resource>.<group>.
func (c CRD) Name() string { return c.Resource + "." + c.Group }

// APIVersion is the group/version of the kind.
func (c CRD) APIVersion() string { return c.Group + "/" + c.Version }

// Managed is one object the operator writes: Kind must be one of ManagedKinds.
type Managed struct {
	Kind, Name string
}

// PodAllowance is what the operator's pod may set beyond the fixed allow-list: kops's own package
// sets exactly these, and a tampered package may not place the operator elsewhere.
type PodAllowance struct {
	PriorityClassName string
	NodeSelector      map[string]string
	// Tolerations are key/operator pairs (operator Exists).
	Tolerations []string
}

// Labels are set on every object kops generates for the operator.
func (d *Descriptor) Labels() map[string]string {
	return map[string]string{
		"app.kubernetes.io/name":   d.DeploymentName,
		channelsapi.LabelManagedBy: "kops",
		channelsapi.LabelAddonName: d.AddonName,
	}
}

// Username is the identity the operator's requests carry.
func (d *Descriptor) Username() string {
	return "system:serviceaccount:" + d.Namespace + ":" + d.ServiceAccount
}

// EventReporter is the component the operator's events must name as their source.
func (d *Descriptor) EventReporter() string { return d.DeploymentName }

// ProbeObject is the object channels asks the API server to create, as the operator, to prove the
// scope policy enforced: an object of a kind the policy matches (a managed kind) under a name the
// operator does not manage (ProbeName), which the policy must deny. The kind is the first
// managed kind whose empty body is valid (a ConfigMap, a ServiceAccount), else the first managed
// kind with its smallest valid body: an object of a kind the operator does not manage would not
// reach the policy at all, and its admission would prove nothing.
func (d *Descriptor) ProbeObject() map[string]interface{} {
	kind := "ConfigMap"
	if len(d.Managed) > 0 {
		kind = d.Managed[0].Kind
	}
	for _, m := range d.Managed {
		if k, ok := managedKinds[m.Kind]; ok && len(k.probeBody) == 0 {
			kind = m.Kind
			break
		}
	}
	k := managedKinds[kind]
	obj := map[string]interface{}{
		"apiVersion": schema.GroupVersion{Group: k.group, Version: k.version}.String(),
		"kind":       kind,
		"metadata":   map[string]interface{}{"name": d.ProbeName, "namespace": d.WatchNamespace},
	}
	for key, v := range k.probeBody {
		obj[key] = runtime.DeepCopyJSONValue(v)
	}
	return obj
}

// Validate reports every missing name and every managed object the generators cannot confine.
func (d *Descriptor) Validate() error {
	var problems []string
	for field, v := range map[string]string{"Subject": d.Subject, "AddonName": d.AddonName, "Namespace": d.Namespace,
		"ServiceAccount": d.ServiceAccount, "DeploymentName": d.DeploymentName, "LeaseName": d.LeaseName,
		"RBACName": d.RBACName, "PolicyName": d.PolicyName, "ProbeName": d.ProbeName,
		"WatchNamespace": d.WatchNamespace, "CRD.Group": d.CRD.Group, "CRD.Version": d.CRD.Version,
		"CRD.Resource": d.CRD.Resource, "CRD.Kind": d.CRD.Kind, "Instructions": d.Instructions} {
		if v == "" {
			problems = append(problems, field+": required")
		}
	}
	if d.CRD.Type == nil {
		problems = append(problems, "CRD.Type: required")
	} else if _, err := crdschema.Schema(d.CRD.Type, d.CRD.Fields); err != nil {
		problems = append(problems, "CRD: "+err.Error())
	}
	if len(d.Managed) == 0 {
		problems = append(problems, "Managed: at least one object, or the operator has nothing to confine")
	}
	seen := map[string]bool{}
	for i, m := range d.Managed {
		if _, ok := managedKinds[m.Kind]; !ok {
			problems = append(problems, fmt.Sprintf("Managed[%d].Kind: %q has no admission rules; supported: %v", i, m.Kind, ManagedKinds()))
		}
		if seen[m.Kind] {
			problems = append(problems, fmt.Sprintf("Managed[%d]: a second %s; the policy confines one object per kind", i, m.Kind))
		}
		if m.Name == "" || m.Name == d.ProbeName {
			problems = append(problems, fmt.Sprintf("Managed[%d].Name: must be set and differ from ProbeName", i))
		}
		seen[m.Kind] = true
	}
	if d.WatchNamespace != "" && d.WatchNamespace == d.Namespace {
		problems = append(problems, fmt.Sprintf("WatchNamespace: %q is the operator's own namespace (Namespace): the operator must run apart from what it manages, or its rights there would reach its own lease, account and pod", d.WatchNamespace))
	}
	if d.MaxReplicas < 1 {
		problems = append(problems, "MaxReplicas: must be at least 1")
	}
	problems = append(problems, d.validateRights()...)
	problems = append(problems, d.validatePrerequisites()...)
	if len(problems) > 0 {
		sortStrings(problems)
		return fmt.Errorf("operator descriptor %q: %s", d.AddonName, strings.Join(problems, "; "))
	}
	return nil
}
