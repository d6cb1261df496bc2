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

package operator

import (
	"reflect"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	channelsapi "k8s.io/kops/channels/pkg/api"
)

// Descriptor is one operator as it runs: every name is required (confine.Descriptor.Validate says
// which is missing).
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
}

// CRD names the custom resource the operator reconciles.
type CRD struct {
	Group, Version, Resource, Kind string
	// Type is the Go type of the custom resource: the CRD's schema is derived from it.
	Type reflect.Type
}

// Name is the CustomResourceDefinition's name, <resource>.<group>.
func (c CRD) Name() string { return c.Resource + "." + c.Group }

// APIVersion is the group/version of the kind.
func (c CRD) APIVersion() string { return c.Group + "/" + c.Version }

// Managed is one object the operator writes: Kind must be one of ManagedKinds.
type Managed struct {
	Kind, Name string
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
		if k, ok := managedKinds[m.Kind]; ok && len(k.ProbeBody) == 0 {
			kind = m.Kind
			break
		}
	}
	k := managedKinds[kind]
	obj := map[string]interface{}{
		"apiVersion": schema.GroupVersion{Group: k.Group, Version: k.Version}.String(),
		"kind":       kind,
		"metadata":   map[string]interface{}{"name": d.ProbeName, "namespace": d.WatchNamespace},
	}
	for key, v := range k.ProbeBody {
		obj[key] = runtime.DeepCopyJSONValue(v)
	}
	return obj
}
