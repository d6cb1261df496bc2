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

package validation

import (
	"testing"

	"k8s.io/kops/pkg/apis/kops"
)

func TestValidateNetworkErrors(t *testing.T) {
	subnet := func(name, zone, cidr string) kops.ClusterSubnetSpec {
		return kops.ClusterSubnetSpec{Name: name, Zone: zone, CIDR: cidr, Type: kops.SubnetTypePrivate}
	}
	tests := []struct {
		name   string
		mutate func(c *kops.Cluster)
		want   []want
	}{
		{"networkCIDR not a CIDR", func(c *kops.Cluster) { c.Spec.NetworkCIDR = "172.20.0.0/x" },
			[]want{{invalid, "spec.networkCIDR", "must be a CIDR"}}},
		{"networkCIDR a bare address", func(c *kops.Cluster) { c.Spec.NetworkCIDR = "172.20.0.0" },
			[]want{{invalid, "spec.networkCIDR", `did you mean "172.20.0.0/32"`}}},
		{"networkCIDR with host bits", func(c *kops.Cluster) { c.Spec.NetworkCIDR = "172.20.1.0/16" },
			[]want{{invalid, "spec.networkCIDR", `did you mean "172.20.0.0/16"`}}},
		{"networkCIDR overlaps nonMasqueradeCIDR", func(c *kops.Cluster) {
			c.Spec.NetworkCIDR = "100.64.0.0/16"
			c.Spec.Subnets[0].CIDR = "100.64.32.0/19"
		}, []want{{invalid, "spec.networkCIDR", "spec.nonMasqueradeCIDR"}, {invalid, "spec.subnets[0].cidr", "overlaps spec.serviceClusterIPRange"}}},
		{"nonMasqueradeCIDR not a CIDR", func(c *kops.Cluster) { c.Spec.NonMasqueradeCIDR = "garbage" },
			[]want{{invalid, "spec.nonMasqueradeCIDR", "must be a CIDR"}}},
		{"nonMasqueradeCIDR IPv6 with host bits", func(c *kops.Cluster) { c.Spec.NonMasqueradeCIDR = "fd00::1/64" },
			[]want{{invalid, "spec.nonMasqueradeCIDR", `did you mean "fd00::/64"`}}},
		{"a small nonMasqueradeCIDR with kops's default service range", func(c *kops.Cluster) { c.Spec.NonMasqueradeCIDR = "10.0.0.0/30" }, nil},
		{"serviceClusterIPRange not a CIDR", func(c *kops.Cluster) { c.Spec.ServiceClusterIPRange = "100.64.0.0/99" },
			[]want{{invalid, "spec.serviceClusterIPRange", "must be a CIDR"}}},
		// kops accepts a service range outside nonMasqueradeCIDR (its completed spec of an AWS VPC CNI
		// cluster has one), and refuses a subnet that overlaps it.
		{"serviceClusterIPRange outside nonMasqueradeCIDR", func(c *kops.Cluster) { c.Spec.ServiceClusterIPRange = "10.96.0.0/12" }, nil},
		{"subnet overlapping serviceClusterIPRange", func(c *kops.Cluster) { c.Spec.ServiceClusterIPRange = "172.20.0.0/18" },
			[]want{{invalid, "spec.subnets[0].cidr", `overlaps spec.serviceClusterIPRange "172.20.0.0/18"`}}},
		{"serviceClusterIPRange IPv6 in an IPv4 cluster", func(c *kops.Cluster) { c.Spec.ServiceClusterIPRange = "fd00::/108" },
			[]want{{invalid, "spec.serviceClusterIPRange", "same IP family"}}},
		{"serviceClusterIPRange IPv4 in an IPv6 cluster", func(c *kops.Cluster) {
			c.Spec.NonMasqueradeCIDR = "::/0"
			c.Spec.ServiceClusterIPRange = "100.64.0.0/13"
		}, []want{{invalid, "spec.serviceClusterIPRange", "same IP family"}}},
		// Service addresses are virtual: outside the private and shared ranges they shadow real hosts
		// (CoreDNS would answer on 8.8.8.10). Only a CNI that gives pods the network's own addresses
		// may need another range.
		{"serviceClusterIPRange public", func(c *kops.Cluster) { c.Spec.ServiceClusterIPRange = "8.8.8.0/24" },
			[]want{{invalid, "spec.serviceClusterIPRange", "private"}}},
		{"serviceClusterIPRange straddling 10.0.0.0/8", func(c *kops.Cluster) { c.Spec.ServiceClusterIPRange = "8.0.0.0/6" },
			[]want{{invalid, "spec.serviceClusterIPRange", "private"}}},
		{"serviceClusterIPRange link-local", func(c *kops.Cluster) { c.Spec.ServiceClusterIPRange = "169.254.0.0/16" },
			[]want{{invalid, "spec.serviceClusterIPRange", "private"}}},
		{"serviceClusterIPRange just above 172.16.0.0/12", func(c *kops.Cluster) { c.Spec.ServiceClusterIPRange = "172.32.0.0/16" },
			[]want{{invalid, "spec.serviceClusterIPRange", "private"}}},
		{"serviceClusterIPRange just above 100.64.0.0/10", func(c *kops.Cluster) { c.Spec.ServiceClusterIPRange = "100.128.0.0/13" },
			[]want{{invalid, "spec.serviceClusterIPRange", "100.64.0.0/10"}}},
		{"serviceClusterIPRange global IPv6", func(c *kops.Cluster) {
			c.Spec.NonMasqueradeCIDR = "::/0"
			c.Spec.ServiceClusterIPRange = "2001:db8::/108"
		}, []want{{invalid, "spec.serviceClusterIPRange", "fd00::/8"}}},
		{"serviceClusterIPRange in fc00::/8, outside the ULA half kops uses", func(c *kops.Cluster) {
			c.Spec.NonMasqueradeCIDR = "::/0"
			c.Spec.ServiceClusterIPRange = "fc00::/108"
		}, []want{{invalid, "spec.serviceClusterIPRange", "fd00::/8"}}},
		{"serviceClusterIPRange public with Amazon VPC CNI", func(c *kops.Cluster) {
			c.Spec.Networking = &kops.NetworkingSpec{AmazonVPC: &kops.AmazonVPCNetworkingSpec{}}
			c.Spec.ServiceClusterIPRange = "8.8.8.0/24"
		}, nil},
		{"serviceClusterIPRange public with Cilium ENI", func(c *kops.Cluster) {
			c.Spec.Networking = &kops.NetworkingSpec{Cilium: &kops.CiliumNetworkingSpec{IPAM: kops.CiliumIPAMENI}}
			c.Spec.ServiceClusterIPRange = "8.8.8.0/24"
		}, nil},
		{"serviceClusterIPRange public with Cilium's own IPAM", func(c *kops.Cluster) {
			c.Spec.Networking = &kops.NetworkingSpec{Cilium: &kops.CiliumNetworkingSpec{}}
			c.Spec.ServiceClusterIPRange = "8.8.8.0/24"
		}, []want{{invalid, "spec.serviceClusterIPRange", "spec.networking.amazonvpc"}}},
		{"serviceClusterIPRange in 192.168.0.0/16", func(c *kops.Cluster) { c.Spec.ServiceClusterIPRange = "192.168.0.0/16" }, nil},
		{"serviceClusterIPRange in 172.16.0.0/12", func(c *kops.Cluster) { c.Spec.ServiceClusterIPRange = "172.31.0.0/16" }, nil},
		{"serviceClusterIPRange in fd00::/8", func(c *kops.Cluster) {
			c.Spec.NonMasqueradeCIDR = "::/0"
			c.Spec.ServiceClusterIPRange = "fd00:5e4f:ce::/108"
		}, nil},
		{"subnet CIDR malformed", func(c *kops.Cluster) { c.Spec.Subnets[0].CIDR = "172.20.32.0/33" },
			[]want{{invalid, "spec.subnets[0].cidr", "must be a CIDR"}}},
		{"subnet CIDR outside networkCIDR", func(c *kops.Cluster) { c.Spec.Subnets[0].CIDR = "172.21.0.0/19" },
			[]want{{invalid, "spec.subnets[0].cidr", `must lie inside spec.networkCIDR "172.20.0.0/16"`}}},
		{"subnet CIDR larger than networkCIDR", func(c *kops.Cluster) { c.Spec.Subnets[0].CIDR = "172.0.0.0/8" },
			[]want{{invalid, "spec.subnets[0].cidr", "must lie inside"}}},
		{"subnets overlap", func(c *kops.Cluster) {
			c.Spec.Subnets = append(c.Spec.Subnets, subnet("b", "us-east-2b", "172.20.64.0/19"), subnet("c", "us-east-2c", "172.20.40.0/21"))
		}, []want{{invalid, "spec.subnets[2].cidr", "overlaps spec.subnets[0].cidr"}}},
		{"subnet overlapping two others", func(c *kops.Cluster) {
			c.Spec.Subnets = append(c.Spec.Subnets, subnet("b", "us-east-2b", "172.20.64.0/19"), subnet("c", "us-east-2c", "172.20.0.0/17"))
		}, []want{
			{invalid, "spec.subnets[2].cidr", "overlaps spec.subnets[0].cidr"},
			{invalid, "spec.subnets[2].cidr", "overlaps spec.subnets[1].cidr"},
		}},
		{"subnet name missing", func(c *kops.Cluster) { c.Spec.Subnets[0].Name = "" },
			[]want{{required, "spec.subnets[0].name", ""}}},
		{"subnet name duplicated", func(c *kops.Cluster) {
			c.Spec.Subnets = append(c.Spec.Subnets, subnet("us-east-2a", "us-east-2b", "172.20.64.0/19"))
		}, []want{{duplicate, "spec.subnets[1].name", ""}}},
		{"subnet zone missing", func(c *kops.Cluster) { c.Spec.Subnets[0].Zone = "" },
			[]want{{required, "spec.subnets[0].zone", ""}}},
		{"subnet type missing", func(c *kops.Cluster) { c.Spec.Subnets[0].Type = "" },
			[]want{{required, "spec.subnets[0].type", "Public"}}},
		{"subnet type unknown", func(c *kops.Cluster) { c.Spec.Subnets[0].Type = "public" },
			[]want{{notSupported, "spec.subnets[0].type", `"Utility"`}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assertErrors(t, ValidateCluster(completed(t, tc.mutate)), tc.want...)
		})
	}
}
