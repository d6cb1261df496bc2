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

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"k8s.io/kops/pkg/apis/kops"
)

const baseARN = "arn:aws:iam::123456789012:role/"

func access(mode string) func(c *kops.Cluster) {
	return func(c *kops.Cluster) {
		c.Spec.Networking = &kops.NetworkingSpec{Calico: &kops.CNIPresence{}}
		c.Spec.PodMetadataAccess = &kops.PodMetadataAccessSpec{Mode: mode}
		if mode == kops.PodMetadataAccessForward {
			c.Spec.PodMetadataAccess.Forward = &kops.PodMetadataForwardSpec{BaseRoleARN: baseARN}
		}
	}
}

func then(fs ...func(c *kops.Cluster)) func(c *kops.Cluster) {
	return func(c *kops.Cluster) {
		for _, f := range fs {
			f(c)
		}
	}
}

func TestValidatePodMetadataAccess(t *testing.T) {
	const mode, fwd, iface = "spec.podMetadataAccess.mode", "spec.podMetadataAccess.forward", "spec.podMetadataAccess.hostInterface"
	tests := []struct {
		name   string
		mutate func(c *kops.Cluster)
		want   []want
	}{
		{"default Block", nil, nil},
		{"Allow", access("Allow"), nil},
		{"Block", access("Block"), nil},
		{"Forward with every setting", then(access("Forward"), func(c *kops.Cluster) {
			f := c.Spec.PodMetadataAccess.Forward
			f.BaseRoleARN, f.DefaultRole, f.NamespaceRestrictions = baseARN+"pods/", "pods/default", ptr(false)
			f.Port = ptr[int32](8282)
		}), nil},
		{"Forward with a default role ARN under the base", then(access("Forward"), func(c *kops.Cluster) {
			c.Spec.PodMetadataAccess.Forward.DefaultRole = baseARN + "default"
		}), nil},
		{"Forward on an unknown CNI with hostInterface", then(access("Forward"), func(c *kops.Cluster) {
			c.Spec.Networking = nil
			c.Spec.PodMetadataAccess.HostInterface = "veth+"
		}), nil},
		{"no setting on a cloud without metadata", func(c *kops.Cluster) { c.Spec.CloudProvider = "metal" },
			[]want{{notSupported, "spec.cloudProvider", ""}}},

		{"typo gets did you mean", access("Blok"), []want{{invalid, mode, `did you mean "Block"`}}},
		{"lower case gets did you mean", access("forward"), []want{{invalid, mode, `did you mean "Forward"`}}},
		{"nonsense lists the values", access("Sometimes"), []want{{notSupported, mode, `"Allow"`}}},
		{"forward settings with Block", then(access("Block"), func(c *kops.Cluster) {
			c.Spec.PodMetadataAccess.Forward = &kops.PodMetadataForwardSpec{BaseRoleARN: baseARN}
		}), []want{{forbidden, fwd, "Forward"}}},
		{"forward settings with Allow", then(access("Allow"), func(c *kops.Cluster) {
			c.Spec.PodMetadataAccess.Forward = &kops.PodMetadataForwardSpec{}
		}), []want{{forbidden, fwd, "Forward"}}},
		{"Block on a cloud without metadata names the cloud", then(access("Block"), func(c *kops.Cluster) { c.Spec.CloudProvider = "metal" }),
			[]want{{notSupported, "spec.cloudProvider", ""}, {forbidden, mode, `"metal"`}}},
		{"Forward outside aws", then(access("Forward"), func(c *kops.Cluster) { c.Spec.CloudProvider = "azure" }),
			[]want{{forbidden, mode, `"azure"`}}},
		{"Forward without baseRoleARN", then(access("Forward"), func(c *kops.Cluster) {
			c.Spec.PodMetadataAccess.Forward = nil
		}), []want{{required, fwd + ".baseRoleARN", "any role"}}},
		{"Forward with a bad baseRoleARN, port, proxy and default role", then(access("Forward"), func(c *kops.Cluster) {
			c.Spec.PodMetadataAccess.Forward = &kops.PodMetadataForwardSpec{
				Proxy: "kiam", Port: ptr[int32](70000), BaseRoleARN: "arn:aws:iam::123456789012:role/*", DefaultRole: "arn:aws:iam::999999999999:role/admin",
			}
		}), []want{
			{notSupported, fwd + ".proxy", "kube2iam"},
			{invalid, fwd + ".port", "65535"},
			{invalid, fwd + ".baseRoleARN", "ending in /"},
			{invalid, fwd + ".defaultRole", "baseRoleARN"},
		}},
		{"proxy typo", then(access("Forward"), func(c *kops.Cluster) { c.Spec.PodMetadataAccess.Forward.Proxy = "kube2aim" }),
			[]want{{invalid, fwd + ".proxy", `did you mean "kube2iam"`}}},
		{"Forward on an unknown CNI needs no interface", then(access("Forward"), func(c *kops.Cluster) { c.Spec.Networking = nil }), nil},
		{"Forward on a bring-your-own CNI needs no interface", then(access("Forward"), func(c *kops.Cluster) {
			c.Spec.Networking = &kops.NetworkingSpec{CNI: &kops.CNIPresence{}}
		}), nil},
		{"hostInterface lo matches lo, which would cut the node off", then(access("Block"), func(c *kops.Cluster) {
			c.Spec.PodMetadataAccess.HostInterface = "lo"
		}), []want{{invalid, iface, "must not match lo"}}},
		{"hostInterface lo+ matches lo, which would cut the node off", then(access("Block"), func(c *kops.Cluster) {
			c.Spec.PodMetadataAccess.HostInterface = "lo+"
		}), []want{{invalid, iface, "must not match lo"}}},
		{"hostInterface l+ matches lo, which would cut the node off", then(access("Block"), func(c *kops.Cluster) {
			c.Spec.PodMetadataAccess.HostInterface = "l+"
		}), []want{{invalid, iface, "must not match lo"}}},
		{"hostInterface + matches lo, which would cut the node off", then(access("Block"), func(c *kops.Cluster) {
			c.Spec.PodMetadataAccess.HostInterface = "+"
		}), []want{{invalid, iface, "must not match lo"}}},
		{"hostInterface lo0 is not lo", then(access("Block"), func(c *kops.Cluster) {
			c.Spec.PodMetadataAccess.HostInterface = "lo0"
		}), nil},
		{"hostInterface lo0+ does not match lo", then(access("Block"), func(c *kops.Cluster) {
			c.Spec.PodMetadataAccess.HostInterface = "lo0+"
		}), nil},
		{"Block on an unknown CNI needs no interface", then(access("Block"), func(c *kops.Cluster) { c.Spec.Networking = nil }), nil},
		{"hostInterface not an interface", then(access("Block"), func(c *kops.Cluster) {
			c.Spec.PodMetadataAccess.HostInterface = "eth0 -j ACCEPT"
		}), []want{{invalid, iface, "interface name"}}},
		{"hostInterface too long", then(access("Block"), func(c *kops.Cluster) {
			c.Spec.PodMetadataAccess.HostInterface = "averyveryverylongname"
		}), []want{{invalid, iface, ""}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assertErrors(t, ValidateCluster(completed(t, tc.mutate)), tc.want...)
		})
	}
}

func TestValidateInstanceMetadataForMode(t *testing.T) {
	const tokens, hops = "spec.instanceMetadata.httpTokens", "spec.instanceMetadata.httpPutResponseHopLimit"
	meta := func(tok *string, hop *int64) func(g *kops.InstanceGroup) {
		return func(g *kops.InstanceGroup) {
			g.Spec.InstanceMetadata = &kops.InstanceMetadataSpec{HTTPTokens: tok, HTTPPutResponseHopLimit: hop}
		}
	}
	tests := []struct {
		name    string
		cluster func(c *kops.Cluster)
		group   func(g *kops.InstanceGroup)
		want    []want
	}{
		{"Block with kops's defaults", access("Block"), meta(ptr("required"), ptr[int64](1)), nil},
		{"Block with nothing set", access("Block"), nil, nil},
		{"Block with IMDSv1", access("Block"), meta(ptr("optional"), nil), []want{{invalid, tokens, "without a token"}}},
		{"Forward with hop limit 2", access("Forward"), meta(nil, ptr[int64](2)), []want{{invalid, hops, "IMDSv2 token"}}},
		{"Block with both wrong reports both", access("Block"), meta(ptr("optional"), ptr[int64](3)),
			[]want{{invalid, tokens, "Block"}, {invalid, hops, "Block"}}},
		{"Allow with nothing set gets hop limit 2", access("Allow"), nil, nil},
		{"Allow with IMDSv1 and hop limit 1", access("Allow"), meta(ptr("optional"), ptr[int64](1)), nil},
		{"Allow with IMDSv2 and hop limit 1", access("Allow"), meta(ptr("required"), ptr[int64](1)),
			[]want{{invalid, hops, "use 2"}}},
		{"Allow with hop limit 1 and default tokens", access("Allow"), meta(nil, ptr[int64](1)),
			[]want{{invalid, hops, "never get a token"}}},
		{"control plane with kops's hop limit 3 under Block", access("Block"), func(g *kops.InstanceGroup) {
			g.Spec.Role = kops.RoleMaster
			meta(ptr("required"), ptr[int64](3))(g)
		}, nil},
		{"bastion under Allow with hop limit 1", access("Allow"), func(g *kops.InstanceGroup) {
			g.Spec.Role = kops.RoleBastion
			meta(ptr("required"), ptr[int64](1))(g)
		}, nil},
		{"not checked outside aws", then(access("Block"), func(c *kops.Cluster) { c.Spec.CloudProvider = "openstack" }),
			meta(ptr("optional"), ptr[int64](5)), nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := ig("nodes", kops.RoleNode)
			if tc.group != nil {
				tc.group(g)
			}
			assertErrors(t, ValidateInstanceGroup(g, completed(t, tc.cluster)), tc.want...)
		})
	}
}

// TestClusterEditRefusedByGroups: switching an existing cluster to Block is refused while a group
// still lets pods get tokens, and the error names the group.
func TestClusterEditRefusedByGroups(t *testing.T) {
	g := ig("nodes", kops.RoleNode)
	g.Spec.InstanceMetadata = &kops.InstanceMetadataSpec{HTTPPutResponseHopLimit: ptr[int64](2)}
	cp := ig("control-plane", kops.RoleControlPlane)
	require.Empty(t, ValidateClusterAndInstanceGroups(completed(t, access("Allow")), []*kops.InstanceGroup{g, cp}))
	errs := ValidateClusterAndInstanceGroups(completed(t, access("Block")), []*kops.InstanceGroup{g, cp})
	require.Len(t, errs, 1, errs.ToAggregate())
	assert.Equal(t, "instanceGroups[nodes].spec.instanceMetadata.httpPutResponseHopLimit", errs[0].Field)
}
