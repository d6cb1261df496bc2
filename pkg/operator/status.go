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

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// Status is what an operator reports on its custom resource, as the cluster-addons operators do:
// the custom resource's type uses it for its status, so every operator's CRD says the same, and
// `kops validate cluster` reads status.healthy and status.errors of any of them.
type Status struct {
	// ObservedGeneration is the object's generation the rest of the status describes.
	ObservedGeneration int64              `json:"observedGeneration,omitempty"`
	Healthy            bool               `json:"healthy,omitempty"`
	Errors             []string           `json:"errors,omitempty"`
	Phase              string             `json:"phase,omitempty"`
	Conditions         []metav1.Condition `json:"conditions,omitempty"`
}

// Resource is an operator's custom resource: its instructions, Spec (the operator's own type), and
// the Status every operator reports. The CRD's schema is generated from it (operator.CRD.Type), so
// the CRD accepts exactly these fields and generated objects decode strictly against it: no
// channel, no patches. A field of Spec without omitempty is required by the CRD.
type Resource[S any] struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   S       `json:"spec"`
	Status *Status `json:"status,omitempty"`
}
