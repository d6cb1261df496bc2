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

// Descriptor is one operator as it runs; every field is required (confine.Descriptor.Validate).
type Descriptor struct {
	// Subject names the operator in messages.
	Subject string
	Names
	// WatchNamespace holds the custom resource and every object the operator manages.
	WatchNamespace string
	// Instructions is the name of the one object of CRD.
	CRD          CRD
	Instructions string
	// Managed are the objects the operator writes in WatchNamespace, of ManagedKinds only.
	Managed []Managed
}

// CRD names the custom resource the operator reconciles.
type CRD struct {
	Group, Version, Resource, Kind string
	// Type is the Go type the CRD's schema is derived from.
	Type reflect.Type
}

// Name is the CustomResourceDefinition's name, <resource>.<group>.
func (c CRD) Name() string { return c.Resource + "." + c.Group }

func (c CRD) APIVersion() string { return c.Group + "/" + c.Version }

// Managed is one object the operator writes; Kind must be one of ManagedKinds.
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

func (d *Descriptor) Username() string {
	return "system:serviceaccount:" + d.Namespace + ":" + d.ServiceAccount
}

// FieldManager is the operator's field manager in every write: its Deployment's name. The exact
// policy lets the entries of no other manager grow.
func (d *Descriptor) FieldManager() string { return d.DeploymentName }

// EventReporter is the source component the operator's events must name.
func (d *Descriptor) EventReporter() string { return d.DeploymentName }

// ProbeObject is the object channels dry-run creates as the operator to prove the scope policy
// is enforced: a managed kind (another kind would not reach the policy, so its admission proves
// nothing) under ProbeName, which the policy must deny.
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
