package corednsoperator

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"k8s.io/kops/pkg/model/components/operator"
)

// APIVersion is the group/version of the CoreDNS kind.
const APIVersion = CRDGroup + "/v1alpha1"

// CoreDNS is the cluster-addons CoreDNS object: the operator's instructions. The CRD's schema is
// generated from this type (crd.go adds its validations), so the CRD accepts exactly these fields
// and generated objects can be decoded strictly against it: no channel, no patches. A field without
// omitempty is required by the CRD.
type CoreDNS struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   CoreDNSSpec    `json:"spec"`
	Status *CoreDNSStatus `json:"status,omitempty"`
}

// CoreDNSSpec says which CoreDNS to run and how. Every field is required by the CRD.
type CoreDNSSpec struct {
	// Version is the CoreDNS package version the operator deploys, from the kops channel: a
	// semantic version.
	Version string `json:"version"`
	// Image is the CoreDNS image the operator runs, pinned by tag or digest and already remapped
	// by spec.assets. It is a field of its own, not a patch, so that the CRD can say what it may be.
	Image string `json:"image"`
	// DNSDomain is kubeDNS.domain, an RFC 1123 subdomain.
	DNSDomain string `json:"dnsDomain"`
	// DNSIP is kubeDNS.serverIP, the ClusterIP of Service kube-dns.
	DNSIP string `json:"dnsIP"`
	// Corefile is exactly what the built-in addon would put in its ConfigMap, at most 64 KiB.
	Corefile string `json:"corefile"`
}

// CoreDNSStatus is what the operator reports: the status every operator of kops reports.
type CoreDNSStatus = operator.Status

// MaxCorefileBytes is the most the CRD accepts in spec.corefile (64 KiB).
const MaxCorefileBytes = 64 << 10
