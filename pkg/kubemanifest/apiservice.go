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

// APIService is apiregistration.k8s.io/v1 APIService, the registration of an aggregated API
// (metrics-server's v1beta1.metrics.k8s.io), field for field as the API server serves it. It is
// written here rather than imported because its only Go types live in k8s.io/kube-aggregator,
// a module that brings the API server's dependencies with it, for the one kind kops renders from
// it; strict decoding needs no more than the fields and their JSON names. The e2e tests send what
// kops renders of it to a real API server.
type APIService struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   APIServiceSpec   `json:"spec,omitempty"`
	Status APIServiceStatus `json:"status,omitempty"`
}

// APIServiceSpec says where the API is served and how it ranks among the versions of its group.
type APIServiceSpec struct {
	// Service is where the API is served; nil means by the API server itself.
	Service               *APIServiceReference `json:"service,omitempty"`
	Group                 string               `json:"group,omitempty"`
	Version               string               `json:"version,omitempty"`
	InsecureSkipTLSVerify bool                 `json:"insecureSkipTLSVerify,omitempty"`
	CABundle              []byte               `json:"caBundle,omitempty"`
	GroupPriorityMinimum  int32                `json:"groupPriorityMinimum"`
	VersionPriority       int32                `json:"versionPriority"`
}

// APIServiceReference names the Service in front of the API's server.
type APIServiceReference struct {
	Namespace string `json:"namespace,omitempty"`
	Name      string `json:"name,omitempty"`
	Port      *int32 `json:"port,omitempty"`
}

// APIServiceStatus is the API server's report on the registration.
type APIServiceStatus struct {
	Conditions []APIServiceCondition `json:"conditions,omitempty"`
}

// APIServiceCondition is one condition of the status (Available).
type APIServiceCondition struct {
	Type               string      `json:"type"`
	Status             string      `json:"status"`
	LastTransitionTime metav1.Time `json:"lastTransitionTime,omitempty"`
	Reason             string      `json:"reason,omitempty"`
	Message            string      `json:"message,omitempty"`
}
