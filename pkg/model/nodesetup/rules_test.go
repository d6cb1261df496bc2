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

package nodesetup

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"k8s.io/kops/pkg/apis/kops"
)

func testCluster(mode string, ipv6 bool, n *kops.NetworkingSpec) *kops.Cluster {
	c := &kops.Cluster{Spec: kops.ClusterSpec{CloudProvider: "aws", NonMasqueradeCIDR: "100.64.0.0/10", Networking: n}}
	if mode != "" {
		c.Spec.PodMetadataAccess = &kops.PodMetadataAccessSpec{Mode: mode}
	}
	if ipv6 {
		c.Spec.NonMasqueradeCIDR = "::/0"
	}
	return c
}

// networkings are spec.networking values the rules must not depend on: each CNI kops names,
// bring-your-own (cni), and none at all.
var networkings = []struct {
	name       string
	networking *kops.NetworkingSpec
}{
	{"calico", &kops.NetworkingSpec{Calico: &kops.CNIPresence{}}},
	{"canal", &kops.NetworkingSpec{Canal: &kops.CNIPresence{}}},
	{"cilium", &kops.NetworkingSpec{Cilium: &kops.CiliumNetworkingSpec{}}},
	{"amazonvpc", &kops.NetworkingSpec{AmazonVPC: &kops.AmazonVPCNetworkingSpec{}}},
	{"flannel", &kops.NetworkingSpec{Flannel: &kops.CNIPresence{}}},
	{"kubenet", &kops.NetworkingSpec{Kubenet: &kops.CNIPresence{}}},
	{"weave", &kops.NetworkingSpec{Weave: &kops.CNIPresence{}}},
	{"kuberouter", &kops.NetworkingSpec{KubeRouter: &kops.CNIPresence{}}},
	{"cni", &kops.NetworkingSpec{CNI: &kops.CNIPresence{}}},
	{"none", nil},
}

var allModes = []string{kops.PodMetadataAccessAllow, kops.PodMetadataAccessBlock, kops.PodMetadataAccessForward}

// TestRulesIgnoreNetworking: no CNI's interface names are listed anywhere, so the script is the
// same whatever spec.networking says; a CNI kops cannot name gets exactly what Calico gets.
func TestRulesIgnoreNetworking(t *testing.T) {
	for _, ipv6 := range []bool{false, true} {
		for _, mode := range allModes {
			want, err := Script(testCluster(mode, ipv6, nil))
			require.NoError(t, err)
			for _, n := range networkings {
				got, err := Script(testCluster(mode, ipv6, n.networking))
				require.NoError(t, err)
				assert.Equal(t, string(want), string(got), "%s, IPv6 %v, %s", mode, ipv6, n.name)
			}
		}
	}
}

// TestScriptPerModeAndFamily pins the rule lines of every combination; the netns tests prove
// what they do.
func TestScriptPerModeAndFamily(t *testing.T) {
	for _, ipv6 := range []bool{false, true} {
		for _, mode := range allModes {
			family := map[bool]string{false: "ipv4", true: "ipv6"}[ipv6]
			t.Run(family+"/"+mode, func(t *testing.T) {
				script, err := Script(testCluster(mode, ipv6, nil))
				require.NoError(t, err)
				s := string(script)
				holds := mode != "Allow"
				has := map[string]bool{
					"-A KOPS-METADATA-RAW ! -i lo -d 169.254.169.254/32 -j DROP\n":                                                             holds,
					"-A KOPS-METADATA ! -i lo -d 169.254.169.254/32 -j DROP\n":                                                                 holds,
					"-A KOPS-METADATA-NAT ! -i lo -d 169.254.169.254/32 -p tcp -m tcp --dport 80 -j DNAT --to-destination ${node_ip4}:8181\n":  mode == "Forward",
					"-A KOPS-METADATA-RAW ! -i lo -d 169.254.169.254/32 -p tcp -m tcp --dport 80 -j RETURN\n":                                  mode == "Forward",
					"-A KOPS-METADATA-RAW ! -i lo -d fd00:ec2::254/128 -j DROP\n":                                                              holds,
					"-A KOPS-METADATA ! -i lo -d fd00:ec2::254/128 -j DROP\n":                                                                  holds,
					"-A KOPS-METADATA-NAT ! -i lo -d fd00:ec2::254/128 -p tcp -m tcp --dport 80 -j DNAT --to-destination [${node_ip6}]:8181\n": mode == "Forward" && ipv6,
					"-A KOPS-METADATA-RAW ! -i lo -d fd00:ec2::254/128 -p tcp -m tcp --dport 80 -j RETURN\n":                                   mode == "Forward" && ipv6,
					"-A KOPS-METADATA-POST -d 169.254.169.254/32 -m conntrack ! --ctorigdst 169.254.169.254/32 -j DROP\n":                      holds,
					"-A KOPS-METADATA-POST -d fd00:ec2::254/128 -m conntrack --ctstate INVALID,UNTRACKED -j DROP\n":                            holds,
					// NAT64: instance metadata behind 64:ff9b::/96, dropped whatever the mode holds.
					"-A KOPS-METADATA-RAW ! -i lo -d 64:ff9b::a9fe:a9fe/128 -j DROP\n":                                            holds,
					"-A KOPS-METADATA ! -i lo -d 64:ff9b::a9fe:a9fe/128 -j DROP\n":                                                holds,
					"-A KOPS-METADATA-POST -d 64:ff9b::a9fe:a9fe/128 -m conntrack ! --ctorigdst 64:ff9b::a9fe:a9fe/128 -j DROP\n": holds,
					"own_chain iptables mangle KOPS-METADATA-POST POSTROUTING <<RULES\n":                                          holds,
					"drop_chain ip6tables mangle KOPS-METADATA-POST POSTROUTING\n":                                                !holds,
					"need ip6tables\n": holds,
					"own_chain iptables mangle KOPS-METADATA FORWARD INPUT <<RULES\n":                                 holds,
					"own_chain ip6tables mangle KOPS-METADATA FORWARD INPUT <<RULES\n":                                holds,
					"drop_chain iptables nat KOPS-METADATA-NAT PREROUTING\n":                                          mode != "Forward",
					"drop_chain ip6tables nat KOPS-METADATA-NAT PREROUTING\n":                                         mode != "Forward" || !ipv6,
					"drop_chain iptables mangle KOPS-METADATA FORWARD INPUT\n":                                        !holds,
					"drop_chain iptables filter KOPS-METADATA FORWARD INPUT\n":                                        true,
					"drop_chain ip6tables filter KOPS-METADATA FORWARD INPUT\n":                                       true,
					"if [ -e /proc/net/if_inet6 ]; then\n":                                                            holds && !ipv6,
					"if command -v ip6tables >/dev/null 2>&1 && command -v ip6tables-restore >/dev/null 2>&1; then\n": !holds,
					// The guard, and what it reads: nat by chain, the other tables whole.
					"\t\tiptables -w -t nat -S KOPS-METADATA-NAT\n":                              mode == "Forward",
					"\t\tiptables-save -t raw\n":                                                 holds,
					"\t\tip6tables-save -t mangle\n":                                             holds,
					"check_seconds=${KOPS_METADATA_CHECK_SECONDS:-2}\n":                          holds,
					"need iptables\n":                                                            true,
					`echo "$name: mode ` + mode + ` applied"`:                                    true,
					"node_ip4=$(node_address -4 169.254.169.254 \"${KOPS_METADATA_NODE_IP:-}\")": mode == "Forward",
					"node_ip6=$(node_address -6 fd00:ec2::254 \"${KOPS_METADATA_NODE_IPV6:-}\")": mode == "Forward" && ipv6,
				}
				for line, want := range has {
					assert.Equal(t, want, strings.Contains(s, line), "script contains %q", line)
				}
				assert.Equal(t, strings.Count(s, "! -i lo "), strings.Count(s, "-i "), "every rule matches all but lo, no interface by name")
			})
		}
	}
}

// TestHostInterfaceNarrowsOnlyWhereSet: hostInterface replaces the universal match in every rule
// of both families, and nothing else does.
func TestHostInterfaceNarrowsOnlyWhereSet(t *testing.T) {
	c := testCluster("Forward", true, &kops.NetworkingSpec{Calico: &kops.CNIPresence{}})
	port := int32(9911)
	c.Spec.PodMetadataAccess.Forward = &kops.PodMetadataForwardSpec{Port: &port}
	c.Spec.PodMetadataAccess.HostInterface = "veth+"
	script, err := Script(c)
	require.NoError(t, err)
	s := string(script)
	assert.Contains(t, s, "\nhost_interface='veth+'\n")
	assert.Contains(t, s, "-A KOPS-METADATA-NAT -i ${host_interface} -d 169.254.169.254/32 -p tcp -m tcp --dport 80 -j DNAT --to-destination ${node_ip4}:9911\n")
	assert.Contains(t, s, "-A KOPS-METADATA -i ${host_interface} -d fd00:ec2::254/128 -j DROP\n")
	assert.Contains(t, s, "# Pod traffic: only what enters on veth+ (spec.podMetadataAccess.hostInterface).\n")
	assert.NotContains(t, s, "! -i lo")
}

func TestDefaultMode(t *testing.T) {
	r, err := RulesFor(testCluster("", false, nil), nil)
	require.NoError(t, err)
	assert.Equal(t, "Block", r.Mode, "Block on AWS")
	gce := testCluster("", false, nil)
	gce.Spec.CloudProvider = "gce"
	r, err = RulesFor(gce, nil)
	require.NoError(t, err)
	assert.Equal(t, "Allow", r.Mode, "Allow where the default is not Block")
}

// TestRulesRefuse: what reaches the script from the spec is checked here too, since the script is
// shell: an interface name is never shell or iptables syntax.
func TestRulesRefuse(t *testing.T) {
	for _, tc := range []struct {
		name, hostInterface, mode, want string
	}{
		{"shell", "cali+; reboot", "Block", "spec.podMetadataAccess.hostInterface: Invalid value"},
		{"substitution", "$(reboot)", "Block", "spec.podMetadataAccess.hostInterface: Invalid value"},
		{"newline", "cali+\n-A INPUT -j ACCEPT", "Block", "spec.podMetadataAccess.hostInterface: Invalid value"},
		{"iptables option", "cali+ -j ACCEPT", "Block", "spec.podMetadataAccess.hostInterface: Invalid value"},
		{"negation", "!lo", "Block", "spec.podMetadataAccess.hostInterface: Invalid value"},
		{"too long", "abcdefghijklmnop", "Block", "spec.podMetadataAccess.hostInterface: Invalid value"},
		{"loopback would cut the node off", "lo", "Block", "spec.podMetadataAccess.hostInterface: Invalid value"},
		{"loopback prefix", "lo+", "Forward", "spec.podMetadataAccess.hostInterface: Invalid value"},
		{"a prefix of loopback", "l+", "Block", "spec.podMetadataAccess.hostInterface: Invalid value"},
		{"every interface, loopback too", "+", "Block", "spec.podMetadataAccess.hostInterface: Invalid value"},
		{"bad mode", "", "Blok", "spec.podMetadataAccess.mode: Unsupported value"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := testCluster(tc.mode, false, nil)
			c.Spec.PodMetadataAccess.HostInterface = tc.hostInterface
			_, err := Script(c)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
	port := int32(0)
	c := testCluster("Forward", false, &kops.NetworkingSpec{Calico: &kops.CNIPresence{}})
	c.Spec.PodMetadataAccess.Forward = &kops.PodMetadataForwardSpec{Port: &port}
	_, err := Script(c)
	assert.ErrorContains(t, err, "spec.podMetadataAccess.forward.port: Invalid value: 0")
}

// TestMetadataAddressPerCloud: the rules protect the cloud's own metadata addresses, IPv6 ones
// on IPv4 clusters too.
func TestMetadataAddressPerCloud(t *testing.T) {
	for _, tc := range []struct {
		cloud, ipv4, ipv6 string
	}{
		{"aws", "169.254.169.254/32", "fd00:ec2::254/128"},
		{"gce", "169.254.169.254/32", "fd20:ce::254/128"},
		{"openstack", "169.254.169.254/32", ""},
		{"scaleway", "169.254.42.42/32", "fd00:42::42/128"},
	} {
		for _, ipv6 := range []bool{false, true} {
			t.Run(tc.cloud+map[bool]string{false: "/ipv4", true: "/ipv6"}[ipv6], func(t *testing.T) {
				c := testCluster("Block", ipv6, nil)
				c.Spec.CloudProvider = tc.cloud
				script, err := Script(c)
				require.NoError(t, err)
				s := string(script)
				assert.Contains(t, s, "-A KOPS-METADATA ! -i lo -d "+tc.ipv4+" -j DROP\n")
				if tc.ipv6 == "" {
					assert.NotContains(t, s, "need ip6tables\n", "no IPv6 metadata, nothing to hold")
					return
				}
				assert.Contains(t, s, "-A KOPS-METADATA-RAW ! -i lo -d "+tc.ipv6+" -j DROP\n")
				assert.Contains(t, s, "-A KOPS-METADATA ! -i lo -d "+tc.ipv6+" -j DROP\n")
				assert.Contains(t, s, "need ip6tables\n")
			})
		}
	}
}
