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

package kubemanifest

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// APIService mirrors apiregistration.k8s.io/v1 field for field: its only Go types live in
// k8s.io/kube-aggregator, which brings the API server's dependencies.
type APIService struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   APIServiceSpec   `json:"spec,omitempty"`
	Status APIServiceStatus `json:"status,omitempty"`
}

type APIServiceSpec struct {
	// Service nil means the API server serves the API itself.
	Service               *APIServiceReference `json:"service,omitempty"`
	Group                 string               `json:"group,omitempty"`
	Version               string               `json:"version,omitempty"`
	InsecureSkipTLSVerify bool                 `json:"insecureSkipTLSVerify,omitempty"`
	CABundle              []byte               `json:"caBundle,omitempty"`
	GroupPriorityMinimum  int32                `json:"groupPriorityMinimum"`
	VersionPriority       int32                `json:"versionPriority"`
}

type APIServiceReference struct {
	Namespace string `json:"namespace,omitempty"`
	Name      string `json:"name,omitempty"`
	Port      *int32 `json:"port,omitempty"`
}

type APIServiceStatus struct {
	Conditions []APIServiceCondition `json:"conditions,omitempty"`
}

type APIServiceCondition struct {
	Type               string      `json:"type"`
	Status             string      `json:"status"`
	LastTransitionTime metav1.Time `json:"lastTransitionTime,omitempty"`
	Reason             string      `json:"reason,omitempty"`
	Message            string      `json:"message,omitempty"`
}
