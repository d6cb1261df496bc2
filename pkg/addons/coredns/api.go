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

package coredns

import (
	"reflect"

	"k8s.io/kops/pkg/operator"
)

// The CoreDNS custom resource the operator reconciles, the cluster-addons kind.
const (
	CRDGroup    = "addons.x-k8s.io"
	CRDVersion  = "v1alpha1"
	CRDKind     = "CoreDNS"
	CRDResource = "corednses"
	CRDName     = CRDResource + "." + CRDGroup
	APIVersion  = CRDGroup + "/" + CRDVersion
)

// CoreDNS is the operator's instructions; kopsmodel adds its CRD's validations.
type CoreDNS = operator.Resource[Spec]

// MaxCorefileBytes is the most the CRD accepts in spec.corefile.
const MaxCorefileBytes = 64 << 10

// Names are the operator's names (operator.NamesOf). It runs in its own namespace so that its
// lease and events stay out of kube-system and its write rights there stay small.
func Names() operator.Names { return operator.NamesOf("coredns") }

// WatchNamespace holds the CoreDNS object and everything the operator creates from it.
const WatchNamespace = "kube-system"

// The objects the operator manages in WatchNamespace. kops pre-creates CoreDNS's RBAC, so the
// operator never needs RBAC rights.
const (
	CoreDNSDeployment     = "coredns"
	CoreDNSService        = "kube-dns"
	CoreDNSConfigMap      = "coredns"
	CoreDNSServiceAccount = "coredns"
	// CoreDNSResource is the name of the CoreDNS object kops writes.
	CoreDNSResource = "coredns"
)

// Descriptor is the operator as it runs (kopsmodel.Descriptor adds what confines it), built afresh
// on each call so no caller can change another's.
func Descriptor() *operator.Descriptor {
	return &operator.Descriptor{
		Subject:        "CoreDNS",
		Names:          Names(),
		WatchNamespace: WatchNamespace,
		CRD: operator.CRD{
			Group: CRDGroup, Version: CRDVersion, Resource: CRDResource, Kind: CRDKind,
			Type: reflect.TypeOf(CoreDNS{}),
		},
		Instructions: CoreDNSResource,
		Managed: []operator.Managed{
			{Kind: "Deployment", Name: CoreDNSDeployment},
			{Kind: "Service", Name: CoreDNSService},
			{Kind: "ConfigMap", Name: CoreDNSConfigMap},
			{Kind: "ServiceAccount", Name: CoreDNSServiceAccount},
		},
	}
}
