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

var cnis = []struct {
	name       string
	networking *kops.NetworkingSpec
	match      string
}{
	{"calico", &kops.NetworkingSpec{Calico: &kops.CNIPresence{}}, "-i cali+"},
	{"cilium", &kops.NetworkingSpec{Cilium: &kops.CiliumNetworkingSpec{}}, "-i lxc+"},
	{"amazonvpc", &kops.NetworkingSpec{AmazonVPC: &kops.AmazonVPCNetworkingSpec{}}, "-i eni+"},
	{"flannel", &kops.NetworkingSpec{Flannel: &kops.CNIPresence{}}, "-i cni0"},
	{"kubenet", &kops.NetworkingSpec{Kubenet: &kops.CNIPresence{}}, "-i cbr0"},
	{"weave", &kops.NetworkingSpec{Weave: &kops.CNIPresence{}}, "-i weave"},
	{"kuberouter", &kops.NetworkingSpec{KubeRouter: &kops.CNIPresence{}}, "-i kube-bridge"},
	{"unknown", nil, "! -i lo"},
}

// TestScriptPerModeCNIAndFamily pins the rule lines of every combination; the netns tests prove
// what they do.
func TestScriptPerModeCNIAndFamily(t *testing.T) {
	for _, cni := range cnis {
		for _, ipv6 := range []bool{false, true} {
			for _, mode := range []string{"Allow", "Block", "Forward"} {
				if mode == "Forward" && cni.networking == nil {
					continue // refused, see TestRulesRefuse
				}
				family := map[bool]string{false: "ipv4", true: "ipv6"}[ipv6]
				t.Run(cni.name+"/"+family+"/"+mode, func(t *testing.T) {
					script, err := Script(testCluster(mode, ipv6, cni.networking))
					require.NoError(t, err)
					s := string(script)
					drop4 := "-A KOPS-METADATA " + cni.match + " -d 169.254.169.254/32 -j DROP"
					raw4 := "-A KOPS-METADATA-RAW " + cni.match + " -d 169.254.169.254/32 -j DROP"
					dnat4 := "-A KOPS-METADATA-NAT " + cni.match + " -d 169.254.169.254/32 -p tcp -m tcp --dport 80 -j DNAT --to-destination ${node_ip4}:8181"
					drop6 := "-A KOPS-METADATA " + cni.match + " -d fd00:ec2::254/128 -j DROP"
					dnat6 := "--to-destination [${node_ip6}]:8181"
					has := map[string]bool{
						drop4: mode != "Allow", raw4: mode != "Allow", dnat4: mode == "Forward",
						drop6: mode != "Allow" && ipv6, dnat6: mode == "Forward" && ipv6,
						"need ip6tables\n": ipv6,
						"jump_first iptables filter FORWARD KOPS-METADATA\n":                         mode != "Allow",
						"jump_first iptables filter INPUT KOPS-METADATA\n":                           mode != "Allow",
						"remove_chain iptables nat KOPS-METADATA-NAT PREROUTING\n":                   mode != "Forward",
						"remove_chain iptables filter KOPS-METADATA FORWARD INPUT\n":                 mode == "Allow",
						"remove_chain ip6tables raw KOPS-METADATA-RAW PREROUTING\n":                  !ipv6 || mode == "Allow",
						"-p tcp -m tcp --dport 80 -j RETURN\n":                                       mode == "Forward",
						"need iptables\n":                                                            true,
						`echo "$name: mode ` + mode + ` applied"`:                                    true,
						"if command -v ip6tables >/dev/null 2>&1; then\n":                            !ipv6,
						"node_ip4=$(node_address -4 169.254.169.254 \"${KOPS_METADATA_NODE_IP:-}\")": mode == "Forward",
					}
					for line, want := range has {
						assert.Equal(t, want, strings.Contains(s, line), "script contains %q", line)
					}
				})
			}
		}
	}
}

func TestRulesForwardPortAndOverride(t *testing.T) {
	c := testCluster("Forward", false, &kops.NetworkingSpec{Calico: &kops.CNIPresence{}})
	port := int32(9911)
	c.Spec.PodMetadataAccess.Forward = &kops.PodMetadataForwardSpec{Port: &port}
	c.Spec.PodMetadataAccess.HostInterface = "veth+"
	script, err := Script(c)
	require.NoError(t, err)
	assert.Contains(t, string(script), "-A KOPS-METADATA-NAT -i veth+ -d 169.254.169.254/32 -p tcp -m tcp --dport 80 -j DNAT --to-destination ${node_ip4}:9911\n")
	assert.NotContains(t, string(script), "cali+")
}

func TestDefaultMode(t *testing.T) {
	r, err := RulesFor(testCluster("", false, nil))
	require.NoError(t, err)
	assert.Equal(t, "Block", r.Mode, "Block on AWS")
	gce := testCluster("", false, nil)
	gce.Spec.CloudProvider = "gce"
	r, err = RulesFor(gce)
	require.NoError(t, err)
	assert.Equal(t, "Allow", r.Mode, "Allow where the default is not Block")
}

// TestRulesRefuse: what reaches the script from the spec is checked here too, since the script is
// shell: an interface name is never shell or iptables syntax.
func TestRulesRefuse(t *testing.T) {
	for _, tc := range []struct {
		name, hostInterface, mode, want string
		networking                      *kops.NetworkingSpec
	}{
		{"shell", "cali+; reboot", "Block", "spec.podMetadataAccess.hostInterface: Invalid value", nil},
		{"substitution", "$(reboot)", "Block", "spec.podMetadataAccess.hostInterface: Invalid value", nil},
		{"newline", "cali+\n-A INPUT -j ACCEPT", "Block", "spec.podMetadataAccess.hostInterface: Invalid value", nil},
		{"iptables option", "cali+ -j ACCEPT", "Block", "spec.podMetadataAccess.hostInterface: Invalid value", nil},
		{"negation", "!lo", "Block", "spec.podMetadataAccess.hostInterface: Invalid value", nil},
		{"too long", "abcdefghijklmnop", "Block", "spec.podMetadataAccess.hostInterface: Invalid value", nil},
		{"loopback would cut the node off", "lo", "Block", "spec.podMetadataAccess.hostInterface: Invalid value", nil},
		{"loopback prefix", "lo+", "Forward", "spec.podMetadataAccess.hostInterface: Invalid value", nil},
		{"unknown CNI in Forward", "", "Forward", "spec.podMetadataAccess.hostInterface: Required value", nil},
		{"bad mode", "", "Blok", "spec.podMetadataAccess.mode: Unsupported value", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := testCluster(tc.mode, false, tc.networking)
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

// TestMetadataAddressPerCloud: the rules protect the cloud's own metadata address, and IPv6 only
// where the cloud serves metadata over IPv6.
func TestMetadataAddressPerCloud(t *testing.T) {
	for _, tc := range []struct {
		cloud      string
		ipv4       string
		ipv6Blocks bool
	}{
		{"aws", "169.254.169.254/32", true},
		{"gce", "169.254.169.254/32", false},
		{"openstack", "169.254.169.254/32", false},
		{"scaleway", "169.254.42.42/32", false},
	} {
		t.Run(tc.cloud, func(t *testing.T) {
			c := testCluster("Block", true, &kops.NetworkingSpec{Calico: &kops.CNIPresence{}})
			c.Spec.CloudProvider = tc.cloud
			script, err := Script(c)
			require.NoError(t, err)
			assert.Contains(t, string(script), "-A KOPS-METADATA -i cali+ -d "+tc.ipv4+" -j DROP\n")
			assert.Equal(t, tc.ipv6Blocks, strings.Contains(string(script), "-d fd00:ec2::254/128 -j DROP"))
			assert.Equal(t, tc.ipv6Blocks, strings.Contains(string(script), "need ip6tables\n"))
		})
	}
}
