package corednsoperator

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// APIVersion is the group/version of the CoreDNS kind.
const APIVersion = CRDGroup + "/v1alpha1"

// CoreDNS is the cluster-addons CoreDNS object: the operator's instructions. It mirrors the CRD's
// schema for the fields kops sets, so that generated objects can be checked against it.
type CoreDNS struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   CoreDNSSpec    `json:"spec,omitempty"`
	Status *CoreDNSStatus `json:"status,omitempty"`
}

// CoreDNSSpec says which CoreDNS to run and how.
type CoreDNSSpec struct {
	// Version is the CoreDNS package version the operator deploys, from the kops channel.
	Version string `json:"version,omitempty"`
	// Channel is where the operator finds its packages; kops leaves it to the operator's default.
	Channel   string `json:"channel,omitempty"`
	DNSDomain string `json:"dnsDomain,omitempty"`
	DNSIP     string `json:"dnsIP,omitempty"`
	// Corefile is exactly what the built-in addon would put in its ConfigMap.
	Corefile string                   `json:"corefile,omitempty"`
	Patches  []map[string]interface{} `json:"patches,omitempty"`
}

// CoreDNSStatus is what the operator reports.
type CoreDNSStatus struct {
	Healthy bool     `json:"healthy,omitempty"`
	Errors  []string `json:"errors,omitempty"`
	Phase   string   `json:"phase,omitempty"`
}
