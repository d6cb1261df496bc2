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

package netnstest

import (
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"k8s.io/kops/pkg/apis/kops"
	"k8s.io/kops/pkg/model/nodesetup"
)

// family is one IP family of the topology.
type family struct {
	name, imds string
	ipv6       bool
}

var (
	ipv4     = family{"IPv4", imds4, false}
	ipv6     = family{"IPv6", imds6, true}
	families = []family{ipv4, ipv6}
)

func (tp *topology) podAddress(f family) string {
	if f.ipv6 {
		return tp.pod6
	}
	return tp.pod4
}

// expected is what mode means for the pods' traffic of family f on a cluster that does or does not
// use IPv6: an IPv4 cluster blocks IPv6 in Forward too, since its proxy listens on IPv4 only.
func expected(mode string, f family, ipv6Cluster bool) string {
	if mode == kops.PodMetadataAccessForward && f.ipv6 && !ipv6Cluster {
		return kops.PodMetadataAccessBlock
	}
	return mode
}

// result is the outcome of one request.
type result struct {
	body string
	err  error
}

// probe sends GET / to each address from ns at once (a dropped one costs the dial timeout, so they
// are not sent one after the other) and returns the outcomes in order.
func probe(ns string, addrs ...string) []result {
	out := make([]result, len(addrs))
	var wg sync.WaitGroup
	for i, addr := range addrs {
		wg.Go(func() {
			body, err := get(ns, addr)
			out[i] = result{body, err}
		})
	}
	wg.Wait()
	return out
}

// checkMode proves what the pod and the node reach in mode, over both families.
func checkMode(t *testing.T, tp *topology, mode string, ipv6Cluster bool) {
	t.Helper()
	var addrs []string
	for _, f := range families {
		addrs = append(addrs, net.JoinHostPort(f.imds, "80"))
	}
	node := probe(tp.node, addrs...)
	for _, f := range families {
		addrs = append(addrs, net.JoinHostPort(f.imds, otherPort))
	}
	pod := probe(tp.pod, addrs...)
	for i, f := range families {
		want := expected(mode, f, ipv6Cluster)
		msg := func(what string) string { return mode + " " + f.name + ": " + what }

		if assert.NoError(t, node[i].err, msg("the node (host network) must reach instance metadata")) {
			assert.Regexp(t, `^imds `, node[i].body, msg("the node's request reaches instance metadata itself"))
		}

		http, other := pod[i], pod[len(families)+i]
		src := tp.podAddress(f)
		switch want {
		case kops.PodMetadataAccessAllow:
			assert.NoError(t, http.err, msg("the pod reaches instance metadata"))
			assert.Equal(t, "imds "+src, http.body, msg("answered by instance metadata"))
			assert.NoError(t, other.err, msg("every port is open to the pod"))
		case kops.PodMetadataAccessBlock:
			assertDropped(t, http.err, msg("the pod must not reach instance metadata, got %q"), http.body)
			assertDropped(t, other.err, msg("no port is open to the pod, got %q"), other.body)
		case kops.PodMetadataAccessForward:
			assert.NoError(t, http.err, msg("the pod's request reaches the proxy"))
			assert.Equal(t, "kube2iam "+src, http.body, msg("the proxy answers, sees the pod's own address and itself reaches instance metadata"))
			assertDropped(t, other.err, msg("every port but the forwarded one is dropped, got %q"), other.body)
		}
	}
}

// assertDropped: the connection timed out, i.e. its packets were dropped; a refused connection
// would mean the fake server was not there, which proves nothing.
func assertDropped(t *testing.T, err error, msgAndArgs ...any) {
	t.Helper()
	var netErr net.Error
	if assert.ErrorAs(t, err, &netErr, msgAndArgs...) {
		assert.True(t, netErr.Timeout(), "not a timeout but %v", err)
	}
}

var modes = []string{kops.PodMetadataAccessAllow, kops.PodMetadataAccessBlock, kops.PodMetadataAccessForward}

// Both paths a pod can take: to metadata behind the primary interface (routed, FORWARD) and to a
// metadata address bound on the node itself (local delivery, INPUT), as an IMDS proxy would.
var placements = []struct {
	name       string
	imdsOnNode bool
}{{"imds behind the primary interface", false}, {"imds bound on the node", true}}

var clusterFamilies = []struct {
	name string
	ipv6 bool
}{{"IPv4 cluster", false}, {"IPv6 cluster", true}}

func TestModes(t *testing.T) {
	for _, p := range placements {
		for _, cf := range clusterFamilies {
			for _, mode := range modes {
				t.Run(p.name+"/"+cf.name+"/"+mode, func(t *testing.T) {
					tp := newTopology(t, routed(podInterfaceName), p.imdsOnNode)
					pristine := tp.rules(t)
					tp.apply(t, cluster(mode, cf.ipv6, calico()))
					checkMode(t, tp, mode, cf.ipv6)
					once := tp.rules(t)
					tp.apply(t, cluster(mode, cf.ipv6, calico()))
					assert.Equal(t, once, tp.rules(t), "a second run adds nothing")
					if mode == kops.PodMetadataAccessAllow {
						assert.Equal(t, pristine, once, "Allow leaves no rule")
					}
					if mode == kops.PodMetadataAccessForward {
						assert.Contains(t, tp.proxy.seen, tp.pod4, "the proxy saw the pod's address")
					}
				})
			}
		}
	}
}

// podWirings are pods wired as each CNI the spec names wires them, and the interfaces no CNI value
// names: a branch-ENI pod, a Multus secondary network, traffic from another node's pod through an
// overlay, an interface nobody told kops about. With each spec.networking value they may meet.
var podWirings = []struct {
	name       string
	networking *kops.NetworkingSpec
	wiring     wiring
}{
	{"calico", calico(), routed("cali1234")},
	{"canal", &kops.NetworkingSpec{Canal: &kops.CNIPresence{}}, routed("cali5678")},
	{"cilium", &kops.NetworkingSpec{Cilium: &kops.CiliumNetworkingSpec{}}, routed("lxc1234")},
	{"amazonvpc", &kops.NetworkingSpec{AmazonVPC: &kops.AmazonVPCNetworkingSpec{}}, routed("eni1234")},
	{"flannel", &kops.NetworkingSpec{Flannel: &kops.CNIPresence{}}, bridged("cni0")},
	{"kubenet", &kops.NetworkingSpec{Kubenet: &kops.CNIPresence{}}, bridged("cbr0")},
	{"weave", &kops.NetworkingSpec{Weave: &kops.CNIPresence{}}, bridged("weave")},
	{"kuberouter", &kops.NetworkingSpec{KubeRouter: &kops.CNIPresence{}}, bridged("kube-bridge")},
	{"cni (bridge)", &kops.NetworkingSpec{CNI: &kops.CNIPresence{}}, bridged("cni0")},
	{"cni (cilium installed by the user)", &kops.NetworkingSpec{CNI: &kops.CNIPresence{}}, routed("lxc1234")},
	{"cni (calico installed by the user)", &kops.NetworkingSpec{CNI: &kops.CNIPresence{}}, routed("cali1234")},
	{"cni (an unnamed interface)", &kops.NetworkingSpec{CNI: &kops.CNIPresence{}}, routed("foo0")},
	{"amazonvpc branch ENI", &kops.NetworkingSpec{AmazonVPC: &kops.AmazonVPCNetworkingSpec{}}, routed("vlan1a2b3c4d5e6")},
	{"calico with Multus net1", calico(), multus()},
	{"calico overlay from another node", calico(), overlay("vxlan.calico")},
	{"flannel overlay from another node", &kops.NetworkingSpec{Flannel: &kops.CNIPresence{}}, overlay("flannel.1")},
	{"calico and an unnamed interface", calico(), routed("foo0")},
	{"no networking named", nil, routed("foo0")},
}

// TestEveryPodInterface: whatever carries the pod's traffic into the node, Block drops it, Forward
// sends only its HTTP requests to the proxy, Allow lets it through, over both families on both
// kinds of cluster; the node always reaches instance metadata.
func TestEveryPodInterface(t *testing.T) {
	for _, w := range podWirings {
		t.Run(w.name, func(t *testing.T) {
			tp := newTopology(t, w.wiring, false)
			for _, cf := range clusterFamilies {
				for _, mode := range modes {
					tp.apply(t, cluster(mode, cf.ipv6, w.networking))
					t.Run(cf.name+"/"+mode, func(t *testing.T) { checkMode(t, tp, mode, cf.ipv6) })
				}
			}
		})
	}
}

// TestModeSwitches walks every change of mode on one node: each leaves exactly the rules the new
// mode leaves on a fresh node, and the traffic that mode allows.
func TestModeSwitches(t *testing.T) {
	needRootAndTools(t)
	host := hostRules(t)
	t.Cleanup(func() { assert.Equal(t, host, hostRules(t), "the machine's own rules are untouched") })
	fresh := map[string]string{}
	var pristine string
	for _, mode := range modes {
		tp := newTopology(t, routed(podInterfaceName), false)
		pristine = tp.rules(t)
		tp.apply(t, cluster(mode, true, calico()))
		fresh[mode] = tp.rules(t)
	}
	require.Equal(t, pristine, fresh[kops.PodMetadataAccessAllow])

	tp := newTopology(t, routed(podInterfaceName), false)
	sequence := []string{"Block", "Forward", "Allow", "Forward", "Block", "Allow", "Block"}
	for i, mode := range sequence {
		tp.apply(t, cluster(mode, true, calico()))
		if i > 0 {
			assert.Equal(t, fresh[mode], tp.rules(t), "rules after %s -> %s", sequence[i-1], mode)
		}
		checkMode(t, tp, mode, true)
	}
}

// acceptFirst inserts an ACCEPT at the top of filter FORWARD and INPUT of both families, as CNIs
// do after the node script ran (Calico accepts pod traffic there).
func acceptFirst(t *testing.T, tp *topology) {
	for _, cmd := range []string{"iptables", "ip6tables"} {
		for _, chain := range []string{"FORWARD", "INPUT"} {
			run(t, "ip", "netns", "exec", tp.node, cmd, "-w", "-I", chain, "1", "-j", "ACCEPT")
		}
	}
}

// TestBlockHoldsWhenACNIAcceptsFirst: the drop happens before any CNI's filter rule can accept.
func TestBlockHoldsWhenACNIAcceptsFirst(t *testing.T) {
	for _, p := range placements {
		for _, mode := range []string{kops.PodMetadataAccessBlock, kops.PodMetadataAccessForward} {
			t.Run(p.name+"/"+mode, func(t *testing.T) {
				tp := newTopology(t, routed(podInterfaceName), p.imdsOnNode)
				tp.apply(t, cluster(mode, true, calico()))
				acceptFirst(t, tp)
				checkMode(t, tp, mode, true)
			})
		}
	}
}

// TestServiceDNATToMetadata: a pod asks a Service address that the node's NAT sends to instance
// metadata, as kube-proxy does for a Service whose EndpointSlice names fd00:ec2::254 (the API
// server refuses link-local endpoints such as 169.254.169.254, but fd00:ec2::254 is not
// link-local), with a CNI accepting pod traffic at the top of FORWARD and INPUT. The raw chain
// sees only the Service address; the packet must still not arrive.
func TestServiceDNATToMetadata(t *testing.T) {
	service := map[bool]string{false: "10.96.0.80", true: "fd00:96::80"}
	for _, p := range placements {
		for _, mode := range modes {
			t.Run(p.name+"/"+mode, func(t *testing.T) {
				tp := newTopology(t, routed(podInterfaceName), p.imdsOnNode)
				tp.apply(t, cluster(mode, true, calico()))
				acceptFirst(t, tp)
				var addrs []string
				for _, f := range families {
					cmd := map[bool]string{false: "iptables", true: "ip6tables"}[f.ipv6]
					to := map[bool]string{false: imds4 + ":80", true: "[" + imds6 + "]:80"}[f.ipv6]
					// kube-proxy puts its Service chain first in nat PREROUTING.
					run(t, "ip", "netns", "exec", tp.node, cmd, "-w", "-t", "nat", "-I", "PREROUTING", "1",
						"-d", service[f.ipv6], "-p", "tcp", "--dport", "80", "-j", "DNAT", "--to-destination", to)
					addrs = append(addrs, net.JoinHostPort(service[f.ipv6], "80"))
				}
				got := probe(tp.pod, addrs...)
				for i, f := range families {
					if mode == kops.PodMetadataAccessAllow {
						assert.NoError(t, got[i].err, "%s: the Service leads to instance metadata", f.name)
						assert.Equal(t, "imds "+tp.podAddress(f), got[i].body, f.name)
						continue
					}
					assertDropped(t, got[i].err, "%s %s: a Service must not lead the pod to instance metadata, got %q", mode, f.name, got[i].body)
				}
			})
		}
	}
}

// TestIPv4MappedAddress: a pod's IPv6 socket connecting to ::ffff:169.254.169.254 sends IPv4
// packets to 169.254.169.254, which the IPv4 rules hold like any other.
func TestIPv4MappedAddress(t *testing.T) {
	for _, mode := range modes {
		t.Run(mode, func(t *testing.T) {
			tp := newTopology(t, routed(podInterfaceName), false)
			tp.apply(t, cluster(mode, false, calico()))
			body, err := getMapped(tp.pod, net.ParseIP(imds4), 80)
			switch mode {
			case kops.PodMetadataAccessAllow:
				assert.NoError(t, err)
				assert.Equal(t, "imds "+tp.pod4, body)
			case kops.PodMetadataAccessBlock:
				assertDropped(t, err, "got %q", body)
			case kops.PodMetadataAccessForward:
				assert.NoError(t, err)
				assert.Equal(t, "kube2iam "+tp.pod4, body)
			}
		})
	}
}

// TestSourceRoutedPackets: a pod addresses its packets to the node and lists instance metadata as
// the next hop of a loose source route (IPv4 option LSRR). The raw chain sees the node's address;
// a node that accepts source routes (net.ipv4.conf.*.accept_source_route, off by default) then
// rewrites the destination and forwards, past a CNI that accepts pod traffic first in FORWARD.
func TestSourceRoutedPackets(t *testing.T) {
	for _, mode := range modes {
		t.Run(mode, func(t *testing.T) {
			tp := newTopology(t, routed(podInterfaceName), false)
			for _, ns := range []string{tp.node, tp.pod, tp.cloud} {
				run(t, "ip", "netns", "exec", ns, "sysctl", "-q", "-w",
					"net.ipv4.conf.all.accept_source_route=1", "net.ipv4.conf.default.accept_source_route=1")
				out := run(t, "ip", "netns", "exec", ns, "sh", "-c", "for f in /proc/sys/net/ipv4/conf/*/accept_source_route; do echo 1 >$f; done")
				require.Empty(t, out)
			}
			tp.apply(t, cluster(mode, false, calico()))
			acceptFirst(t, tp)
			body, err := getSourceRouted(tp.pod, net.ParseIP(nodeIP4), net.ParseIP(imds4), 80)
			if mode == kops.PodMetadataAccessAllow {
				assert.NoError(t, err, "the source route leads to instance metadata")
				assert.Equal(t, "imds "+tp.pod4, body)
				return
			}
			assertDropped(t, err, "a source route must not lead the pod to instance metadata, got %q", body)
		})
	}
}

// TestHostInterfaceNarrows: spec.podMetadataAccess.hostInterface, and only it, narrows the rules to
// one interface pattern; a pod on another interface is then not matched. That is what the user
// asked for, and why the field is documented as opening every other interface.
func TestHostInterfaceNarrows(t *testing.T) {
	for _, tc := range []struct {
		wiring  wiring
		matched bool
	}{{routed("cali1234"), true}, {routed("foo0"), false}} {
		t.Run(tc.wiring.name, func(t *testing.T) {
			tp := newTopology(t, tc.wiring, false)
			c := cluster(kops.PodMetadataAccessBlock, false, calico())
			c.Spec.PodMetadataAccess.HostInterface = "cali+"
			tp.apply(t, c)
			if tc.matched {
				checkMode(t, tp, kops.PodMetadataAccessBlock, false)
				return
			}
			got := probe(tp.pod, net.JoinHostPort(imds4, "80"))
			assert.NoError(t, got[0].err, "foo0 is outside hostInterface cali+, so its traffic is not matched")
		})
	}
}

// TestForwardWithoutANodeAddressChangesNothing: when the node address cannot be found (metadata
// bound on the node, so the route to it is local), the script fails before touching any rule and
// says what to do; the unit then keeps kubelet from starting.
func TestForwardWithoutANodeAddressChangesNothing(t *testing.T) {
	tp := newTopology(t, routed(podInterfaceName), true)
	before := tp.rules(t)
	script, err := nodesetup.Script(cluster(kops.PodMetadataAccessForward, false, calico()))
	require.NoError(t, err)
	path := filepath.Join(t.TempDir(), "script")
	require.NoError(t, os.WriteFile(path, script, 0o755))
	cmd := exec.Command("ip", "netns", "exec", tp.node, "/bin/sh", path)
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "KOPS_METADATA_WAIT_SECONDS=1"}
	out, err := cmd.CombinedOutput()
	require.Error(t, err)
	assert.Contains(t, string(out), "no route to 169.254.169.254 from a node address")
	assert.Equal(t, before, tp.rules(t))
}

// TestNoIp6tablesOnAnIPv6KernelFailsClosed: an IPv4 cluster's node whose kernel has IPv6 but which
// lacks ip6tables could not hold fd00:ec2::254; the script fails, before changing any rule, and
// kubelet does not start.
func TestNoIp6tablesOnAnIPv6KernelFailsClosed(t *testing.T) {
	tp := newTopology(t, routed(podInterfaceName), false)
	before := tp.rules(t)
	bin := t.TempDir()
	for _, tool := range []string{"iptables", "iptables-restore", "ip", "sed", "cat", "sleep"} {
		p, err := exec.LookPath(tool)
		require.NoError(t, err)
		require.NoError(t, os.Symlink(p, filepath.Join(bin, tool)))
	}
	out, err := tp.tryApply(t, cluster(kops.PodMetadataAccessBlock, false, calico()), bin)
	require.Error(t, err)
	assert.Contains(t, out, "ip6tables not found")
	assert.Equal(t, before, tp.rules(t))
}

// hostRules is iptables -S of the namespace the test runs in: the scripts run only in theirs.
func hostRules(t *testing.T) string {
	t.Helper()
	var out string
	for _, cmd := range []string{"iptables", "ip6tables"} {
		for _, table := range tables {
			out += run(t, cmd, "-w", "-t", table, "-S")
		}
	}
	return out
}

// TestEarlierFilterChainIsRemoved: a node an earlier version set up has the backstop in filter
// FORWARD and INPUT, matching Calico's interfaces only. Running this version leaves exactly the
// rules a fresh node gets, in every mode.
func TestEarlierFilterChainIsRemoved(t *testing.T) {
	for _, mode := range modes {
		t.Run(mode, func(t *testing.T) {
			fresh := newTopology(t, routed(podInterfaceName), false)
			fresh.apply(t, cluster(mode, true, calico()))

			tp := newTopology(t, routed(podInterfaceName), false)
			for cmd, imds := range map[string]string{"iptables": imds4 + "/32", "ip6tables": imds6 + "/128"} {
				in := func(args ...string) { run(t, append([]string{"ip", "netns", "exec", tp.node, cmd, "-w"}, args...)...) }
				in("-N", "KOPS-METADATA")
				in("-A", "KOPS-METADATA", "-i", "cali+", "-d", imds, "-j", "DROP")
				in("-I", "FORWARD", "1", "-j", "KOPS-METADATA")
				in("-I", "INPUT", "1", "-j", "KOPS-METADATA")
			}
			require.Contains(t, tp.rules(t), "-A FORWARD -j KOPS-METADATA")
			tp.apply(t, cluster(mode, true, calico()))
			assert.Equal(t, fresh.rules(t), tp.rules(t))
			checkMode(t, tp, mode, true)
		})
	}
}
