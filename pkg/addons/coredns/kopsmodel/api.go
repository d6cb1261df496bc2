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

package kopsmodel

import (
	"k8s.io/kops/pkg/operator"
)

// APIVersion is the group/version of the CoreDNS kind.
const APIVersion = CRDGroup + "/v1alpha1"

// CoreDNS is the cluster-addons CoreDNS object: the operator's instructions (crd.go adds its CRD's
// validations).
type CoreDNS = operator.Resource[CoreDNSSpec]

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

// MaxCorefileBytes is the most the CRD accepts in spec.corefile (64 KiB).
const MaxCorefileBytes = 64 << 10
