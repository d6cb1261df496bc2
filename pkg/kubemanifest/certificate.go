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

// Certificate mirrors the fields of cert-manager.io/v1 Certificate that kops writes and reads: its
// Go types live in cert-manager's module, which this build does not link. A strict decode refuses
// any other field, so a manifest cannot carry one unseen.
type Certificate struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   CertificateSpec   `json:"spec,omitempty"`
	Status CertificateStatus `json:"status,omitempty"`
}

type CertificateSpec struct {
	SecretName  string          `json:"secretName"`
	Duration    string          `json:"duration,omitempty"`
	RenewBefore string          `json:"renewBefore,omitempty"`
	Usages      []string        `json:"usages,omitempty"`
	DNSNames    []string        `json:"dnsNames,omitempty"`
	IssuerRef   IssuerReference `json:"issuerRef"`
}

type IssuerReference struct {
	Name  string `json:"name"`
	Kind  string `json:"kind,omitempty"`
	Group string `json:"group,omitempty"`
}

type CertificateStatus struct {
	Conditions []CertificateCondition `json:"conditions,omitempty"`
}

type CertificateCondition struct {
	Type    string `json:"type"`
	Status  string `json:"status"`
	Reason  string `json:"reason,omitempty"`
	Message string `json:"message,omitempty"`
}
