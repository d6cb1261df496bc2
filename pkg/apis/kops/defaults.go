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

// Defaults match kops's, so a cluster completed here and by kops agree.
const (
	DefaultChannel           = "stable"
	DefaultNonMasqueradeCIDR = "100.64.0.0/10"
	// The service ranges are fixed as in kops, not derived from nonMasqueradeCIDR: an AWS VPC CNI
	// cluster's nonMasqueradeCIDR is its VPC range, and a service range from it would collide.
	DefaultServiceClusterIPRange     = "100.64.0.0/13"
	DefaultIPv6ServiceClusterIPRange = "fd00:5e4f:ce::/108"
	DefaultDNSProvider               = DNSProviderCoreDNS
	DefaultDNSDomain                 = "cluster.local"
	DefaultDNSCPURequest             = "100m"
	DefaultDNSMemoryRequest          = "70Mi"
	DefaultDNSMemoryLimit            = "170Mi"
	DNSServerIPOffset                = 10
)

// CompleteCluster returns a deep copy of in with defaulted fields filled in; configBase defaults to
// <stateStore>/<name>. Values that cannot be derived are left empty so validation names the field.
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
	// Fresh quantities: a shared pointer would let one cluster's edit leak into another.
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

// IsIPv6CIDR says whether cidr is an IPv6 prefix; an IPv6 nonMasqueradeCIDR (::/0) marks an IPv6 cluster.
func IsIPv6CIDR(cidr string) bool {
	p, err := netip.ParsePrefix(cidr)
	return err == nil && p.Addr().Is6()
}

func (s *ClusterSpec) IsIPv6Only() bool {
	return IsIPv6CIDR(s.NonMasqueradeCIDR)
}

// DeriveServiceClusterIPRange returns kops's default service range for nonMasqueradeCIDR, or "" when
// it does not parse.
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

// DNSServerIP returns the range's base address plus DNSServerIPOffset, or "" when the range does not
// parse; validation reports an address outside a too-small range.
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
