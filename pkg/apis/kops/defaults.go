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

package kops

import (
	"net/netip"
	"strings"

	"k8s.io/apimachinery/pkg/api/resource"
)

// Defaults applied by CompleteCluster. They match kops's, so a cluster completed here and one
// completed by kops agree.
const (
	DefaultChannel           = "stable"
	DefaultNonMasqueradeCIDR = "100.64.0.0/10"
	// DefaultServiceClusterIPRange and DefaultIPv6ServiceClusterIPRange are the service ranges of
	// IPv4 and IPv6 clusters that set none. As in kops they are fixed, not derived from
	// nonMasqueradeCIDR: an AWS VPC CNI cluster's nonMasqueradeCIDR is its VPC's own range, and a
	// service range carved from it would collide with machine addresses.
	DefaultServiceClusterIPRange     = "100.64.0.0/13"
	DefaultIPv6ServiceClusterIPRange = "fd00:5e4f:ce::/108"
	DefaultDNSProvider               = DNSProviderCoreDNS
	DefaultDNSDomain                 = "cluster.local"
	DefaultDNSCPURequest             = "100m"
	DefaultDNSMemoryRequest          = "70Mi"
	DefaultDNSMemoryLimit            = "170Mi"
	// DNSServerIPOffset is how far into the service range the cluster DNS service address lies.
	DNSServerIPOffset = 10
)

// CompleteCluster returns a deep copy of in with every empty defaulted field filled in; in is not
// modified. stateStore is the state store URL (file:///tmp/state, memfs://test, s3://bucket) from
// which the default configBase <stateStore>/<name> is built.
//
// Values that cannot be derived (an unparseable nonMasqueradeCIDR, say) are left empty rather than
// guessed, so that validation reports the field the user has to fix.
func CompleteCluster(in *Cluster, stateStore string) *Cluster {
	if in == nil {
		return nil
	}
	c := in.DeepCopy()
	s := &c.Spec

	if s.Channel == "" {
		s.Channel = DefaultChannel
	}
	if s.ConfigBase == "" && stateStore != "" && c.Name != "" {
		s.ConfigBase = strings.TrimSuffix(stateStore, "/") + "/" + c.Name
	}
	if s.NonMasqueradeCIDR == "" {
		s.NonMasqueradeCIDR = DefaultNonMasqueradeCIDR
	}
	if s.ServiceClusterIPRange == "" {
		s.ServiceClusterIPRange = DeriveServiceClusterIPRange(s.NonMasqueradeCIDR)
	}

	if s.KubeDNS == nil {
		s.KubeDNS = &KubeDNSConfig{}
	}
	completeKubeDNS(s.KubeDNS, s.ServiceClusterIPRange)

	if s.Authorization == nil {
		s.Authorization = &AuthorizationSpec{RBAC: &RBACAuthorizationSpec{}}
	}
	completePodMetadataAccess(s)
	return c
}

func completeKubeDNS(d *KubeDNSConfig, serviceClusterIPRange string) {
	if d.Provider == "" {
		d.Provider = DefaultDNSProvider
	}
	if d.ServerIP == "" {
		d.ServerIP = DNSServerIP(serviceClusterIPRange)
	}
	if d.Domain == "" {
		d.Domain = DefaultDNSDomain
	}
	// Fresh quantities each time: a shared pointer would let one cluster's edit leak into another.
	if d.CPURequest == nil {
		d.CPURequest = quantity(DefaultDNSCPURequest)
	}
	if d.MemoryRequest == nil {
		d.MemoryRequest = quantity(DefaultDNSMemoryRequest)
	}
	if d.MemoryLimit == nil {
		d.MemoryLimit = quantity(DefaultDNSMemoryLimit)
	}
}

func quantity(s string) *resource.Quantity {
	q := resource.MustParse(s)
	return &q
}

// IsIPv6CIDR says whether cidr parses as an IPv6 prefix. An IPv6 nonMasqueradeCIDR (kops uses
// ::/0) is how a cluster is marked IPv6.
func IsIPv6CIDR(cidr string) bool {
	p, err := netip.ParsePrefix(cidr)
	return err == nil && p.Addr().Is6()
}

// IsIPv6Only says whether the cluster is an IPv6 cluster, i.e. its nonMasqueradeCIDR is IPv6.
func (s *ClusterSpec) IsIPv6Only() bool {
	return IsIPv6CIDR(s.NonMasqueradeCIDR)
}

// DeriveServiceClusterIPRange returns the default service range for a nonMasqueradeCIDR, as kops
// defaults it: DefaultIPv6ServiceClusterIPRange for an IPv6 cluster, DefaultServiceClusterIPRange
// otherwise. It returns "" when nonMasqueradeCIDR does not parse, so that validation reports that
// field rather than a guessed range.
func DeriveServiceClusterIPRange(nonMasqueradeCIDR string) string {
	p, err := netip.ParsePrefix(nonMasqueradeCIDR)
	if err != nil {
		return ""
	}
	if p.Addr().Is6() {
		return DefaultIPv6ServiceClusterIPRange
	}
	return DefaultServiceClusterIPRange
}

// DNSServerIP returns the default cluster DNS address for a service range: its base address plus
// DNSServerIPOffset (100.64.0.0/13 gives 100.64.0.10, fd00:5e4f:ce::/108 gives fd00:5e4f:ce::a).
// It returns "" when the range does not parse. The address may fall outside a range that is too
// small; validation reports that.
func DNSServerIP(serviceClusterIPRange string) string {
	p, err := netip.ParsePrefix(serviceClusterIPRange)
	if err != nil {
		return ""
	}
	a := p.Masked().Addr()
	for i := 0; i < DNSServerIPOffset && a.IsValid(); i++ {
		a = a.Next()
	}
	if !a.IsValid() {
		return ""
	}
	return a.String()
}
