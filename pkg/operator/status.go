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

// Status is an operator's status, shaped as the cluster-addons operators report it;
// `kops validate cluster` reads Healthy and Errors of any operator.
type Status struct {
	ObservedGeneration int64              `json:"observedGeneration,omitempty"`
	Healthy            bool               `json:"healthy,omitempty"`
	Errors             []string           `json:"errors,omitempty"`
	Phase              string             `json:"phase,omitempty"`
	Conditions         []metav1.Condition `json:"conditions,omitempty"`
}

// Resource is an operator's custom resource. The CRD's schema is generated from it, so a field
// of Spec without omitempty is required.
type Resource[S any] struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   S       `json:"spec"`
	Status *Status `json:"status,omitempty"`
}
