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

// The rule families where validation once refused what kops accepts. Each family is tested from
// both sides: the kops-shaped spec that must load, and the near miss kops refuses too, with the
// field path of the error.
func TestNetworkRulesMatchKops(t *testing.T) {
	regional := func(cloud, region string) func(c *kops.Cluster) {
		return func(c *kops.Cluster) {
			c.Spec.CloudProvider = cloud
			c.Spec.NetworkCIDR = "10.0.0.0/16"
			c.Spec.Subnets = []kops.ClusterSubnetSpec{{Name: region, Region: region, CIDR: "10.0.16.0/20", Type: kops.SubnetTypePublic}}
		}
	}
	withNetworking := func(n *kops.NetworkingSpec, networkCIDR, nonMasq string) func(c *kops.Cluster) {
		return func(c *kops.Cluster) {
			c.Spec.Networking = n
			c.Spec.NetworkCIDR = networkCIDR
			c.Spec.NonMasqueradeCIDR = nonMasq
			c.Spec.Subnets[0].CIDR = "" // subnets are not what these cases are about
		}
	}
	amazonVPC := &kops.NetworkingSpec{AmazonVPC: &kops.AmazonVPCNetworkingSpec{}}
	ciliumENI := &kops.NetworkingSpec{Cilium: &kops.CiliumNetworkingSpec{IPAM: kops.CiliumIPAMENI}}
	ciliumOverlay := &kops.NetworkingSpec{Cilium: &kops.CiliumNetworkingSpec{}}
	otherCNI := &kops.NetworkingSpec{} // calico, cni, kubenet, ...: unmodeled options

	tests := []struct {
		name   string
		mutate func(c *kops.Cluster)
		want   []want
	}{
		// (i) where subnets are placed
		{"gce: regional subnet, no zone", regional("gce", "us-central1"), nil},
		{"openstack: subnet with a region and no zone", regional("openstack", "RegionOne"), nil},
		{"openstack: subnet with a zone", func(c *kops.Cluster) {
			c.Spec.CloudProvider = "openstack"
			c.Spec.Subnets[0].Zone = "nova"
		}, nil},
		{"azure: regional subnet", regional("azure", "eastus"), nil},
		{"gce: subnet with a zone", func(c *kops.Cluster) {
			regional("gce", "us-central1")(c)
			c.Spec.Subnets[0].Zone = "us-central1-a"
		}, []want{{invalid, "spec.subnets[0].zone", "GCE subnets are regional"}}},
		{"aws: subnet with only a region", regional("aws", "us-east-2"),
			[]want{{required, "spec.subnets[0].zone", "availability zone"}}},

		// (ii) additional network CIDRs hold subnets too
		{"subnet in an additional network CIDR", func(c *kops.Cluster) {
			c.Spec.AdditionalNetworkCIDRs = []string{"10.1.0.0/16", "10.2.0.0/16"}
			c.Spec.Subnets = append(c.Spec.Subnets,
				kops.ClusterSubnetSpec{Name: "extra", Zone: "us-east-2b", CIDR: "10.2.32.0/19", Type: kops.SubnetTypePrivate})
		}, nil},
		{"subnet outside networkCIDR and every additional CIDR", func(c *kops.Cluster) {
			c.Spec.AdditionalNetworkCIDRs = []string{"10.1.0.0/16"}
			c.Spec.Subnets = append(c.Spec.Subnets,
				kops.ClusterSubnetSpec{Name: "extra", Zone: "us-east-2b", CIDR: "10.3.0.0/19", Type: kops.SubnetTypePrivate})
		}, []want{{invalid, "spec.subnets[1].cidr", "or one of spec.additionalNetworkCIDRs"}}},
		{"subnet straddling an additional CIDR", func(c *kops.Cluster) {
			c.Spec.AdditionalNetworkCIDRs = []string{"10.1.0.0/16"}
			c.Spec.Subnets[0].CIDR = "10.0.0.0/15"
		}, []want{{invalid, "spec.subnets[0].cidr", "must lie inside"}}},
		{"additional network CIDR malformed", func(c *kops.Cluster) { c.Spec.AdditionalNetworkCIDRs = []string{"10.1.0.0/16", "10.2.0.1/16"} },
			[]want{{invalid, "spec.additionalNetworkCIDRs[1]", `did you mean "10.2.0.0/16"`}}},
		{"additional network CIDR empty", func(c *kops.Cluster) { c.Spec.AdditionalNetworkCIDRs = []string{""} },
			[]want{{required, "spec.additionalNetworkCIDRs[0]", ""}}},

		// (iii) CNIs that take pod addresses from the network, and IPv6
		{"amazonvpc: nonMasqueradeCIDR equals networkCIDR", withNetworking(amazonVPC, "172.20.0.0/16", "172.20.0.0/16"), nil},
		{"amazonvpc: nonMasqueradeCIDR contains networkCIDR", withNetworking(amazonVPC, "10.4.0.0/16", "10.0.0.0/8"), nil},
		{"cilium with ENI IPAM: overlap", withNetworking(ciliumENI, "172.20.0.0/16", "172.20.0.0/16"), nil},
		{"IPv6: ::/0 next to an IPv4 networkCIDR", withNetworking(otherCNI, "172.20.0.0/16", "::/0"), nil},
		{"amazonvpc: IPv6 still needs ::/0", withNetworking(amazonVPC, "172.20.0.0/16", "fd00::/64"),
			[]want{{forbidden, "spec.nonMasqueradeCIDR", `"::/0"`}}},
		{"cilium overlay: overlap refused", withNetworking(ciliumOverlay, "172.20.0.0/16", "172.20.0.0/16"),
			[]want{{invalid, "spec.networkCIDR", "spec.nonMasqueradeCIDR"}}},
		{"another CNI: overlap refused", withNetworking(otherCNI, "100.64.0.0/16", "100.64.0.0/10"),
			[]want{{invalid, "spec.networkCIDR", "amazonvpc"}}},
		{"IPv6 nonMasqueradeCIDR other than ::/0", func(c *kops.Cluster) { c.Spec.NonMasqueradeCIDR = "fd00::/48" },
			[]want{{forbidden, "spec.nonMasqueradeCIDR", `must have a nonMasqueradeCIDR of "::/0"`}}},

		// (iv) IP families: an IPv4 cluster's machine ranges are IPv4; an IPv6 cluster's network may
		// be either, as long as its ranges agree with each other
		{"IPv6 cluster on an IPv6 network", func(c *kops.Cluster) {
			c.Spec.NonMasqueradeCIDR = "::/0"
			c.Spec.NetworkCIDR = "fd00:10::/48"
			c.Spec.AdditionalNetworkCIDRs = []string{"fd00:11::/48"}
			c.Spec.Subnets[0].CIDR = "fd00:11::/64"
		}, nil},
		{"networkCIDR ::/0 in an IPv4 cluster", func(c *kops.Cluster) {
			c.Spec.NetworkCIDR = "::/0"
			c.Spec.Subnets[0].CIDR = "2000::/3"
		}, []want{
			{invalid, "spec.networkCIDR", "is the whole IPv6 address space"},
			{invalid, "spec.networkCIDR", `must be an IPv4 CIDR: the cluster is IPv4 (spec.nonMasqueradeCIDR "100.64.0.0/10")`},
		}},
		{"networkCIDR ::/0 in an IPv6 cluster", func(c *kops.Cluster) {
			c.Spec.NonMasqueradeCIDR = "::/0"
			c.Spec.NetworkCIDR = "::/0"
			c.Spec.Subnets[0].CIDR = ""
		}, []want{{invalid, "spec.networkCIDR", "is the whole IPv6 address space"}}},
		{"networkCIDR 0.0.0.0/0 with the VPC CNI", func(c *kops.Cluster) {
			c.Spec.Networking = &kops.NetworkingSpec{AmazonVPC: &kops.AmazonVPCNetworkingSpec{}}
			c.Spec.NetworkCIDR = "0.0.0.0/0"
		}, []want{{invalid, "spec.networkCIDR", "is the whole IPv4 address space"}}},
		{"an IPv6 networkCIDR in an IPv4 cluster", func(c *kops.Cluster) {
			c.Spec.NetworkCIDR = "fd00:10::/48"
			c.Spec.Subnets[0].CIDR = "fd00:10::/64"
		}, []want{{invalid, "spec.networkCIDR", "must be an IPv4 CIDR"}}},
		{"additional network CIDR of the other family", func(c *kops.Cluster) { c.Spec.AdditionalNetworkCIDRs = []string{"fd00:10::/48"} },
			[]want{{invalid, "spec.additionalNetworkCIDRs[0]", `must be the same IP family as spec.networkCIDR "172.20.0.0/16"`}}},
		{"additional network CIDR ::/0", func(c *kops.Cluster) {
			c.Spec.NonMasqueradeCIDR = "::/0"
			c.Spec.NetworkCIDR = ""
			c.Spec.AdditionalNetworkCIDRs = []string{"::/0"}
		}, []want{{invalid, "spec.additionalNetworkCIDRs[0]", "is the whole IPv6 address space"}}},
		{"no networkCIDR: an IPv6 additional range in an IPv4 cluster", func(c *kops.Cluster) {
			c.Spec.NetworkCIDR = ""
			c.Spec.AdditionalNetworkCIDRs = []string{"fd00:10::/48"}
		}, []want{{invalid, "spec.additionalNetworkCIDRs[0]", "must be an IPv4 CIDR"}}},
		{"no networkCIDR: an IPv6 subnet in an IPv4 cluster", func(c *kops.Cluster) {
			c.Spec.NetworkCIDR = ""
			c.Spec.Subnets[0].CIDR = "fd00:10::/64"
		}, []want{{invalid, "spec.subnets[0].cidr", "must be an IPv4 CIDR"}}},
		{"no networkCIDR: an IPv6 subnet in an IPv6 cluster", func(c *kops.Cluster) {
			c.Spec.NonMasqueradeCIDR = "::/0"
			c.Spec.NetworkCIDR = ""
			c.Spec.Subnets[0].CIDR = "fd00:10::/64"
		}, nil},
		{"no networkCIDR: a subnet of every address", func(c *kops.Cluster) {
			c.Spec.NetworkCIDR = ""
			c.Spec.Subnets[0].CIDR = "0.0.0.0/0"
		}, []want{{invalid, "spec.subnets[0].cidr", "is the whole IPv4 address space"}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assertErrors(t, ValidateCluster(completed(t, tc.mutate)), tc.want...)
		})
	}
}
