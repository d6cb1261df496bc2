package netnstest

import (
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"k8s.io/kops/pkg/apis/kops"
	"k8s.io/kops/pkg/model/nodesetup"
)

// family is one IP family's addresses in the topology.
type family struct {
	name, imds, pod, node string
}

var (
	ipv4 = family{"IPv4", imds4, podIP4, nodeIP4}
	ipv6 = family{"IPv6", imds6, podIP6, nodeIP6}
)

// checkMode proves what the pod and the node reach in mode, over one family.
func checkMode(t *testing.T, tp *topology, mode string, f family) {
	t.Helper()
	http := net.JoinHostPort(f.imds, "80")
	other := net.JoinHostPort(f.imds, otherPort)

	body, err := get(tp.node, http)
	if assert.NoError(t, err, "%s %s: the node (host network) must reach instance metadata", mode, f.name) {
		assert.Regexp(t, `^imds `, body, "%s %s: the node's request reaches instance metadata itself", mode, f.name)
	}

	body, err = get(tp.pod, http)
	switch mode {
	case kops.PodMetadataAccessAllow:
		assert.NoError(t, err, "%s %s: the pod reaches instance metadata", mode, f.name)
		assert.Equal(t, "imds "+f.pod, body, "%s %s", mode, f.name)
	case kops.PodMetadataAccessBlock:
		assertDropped(t, err, "%s %s: the pod must not reach instance metadata, got %q", mode, f.name, body)
	case kops.PodMetadataAccessForward:
		assert.NoError(t, err, "%s %s: the pod's request reaches the proxy", mode, f.name)
		assert.Equal(t, "kube2iam "+f.pod, body, "%s %s: the proxy answers and sees the pod's own address", mode, f.name)
	}

	body, err = get(tp.pod, other)
	if mode == kops.PodMetadataAccessAllow {
		assert.NoError(t, err, "%s %s: every port is open to the pod", mode, f.name)
	} else {
		assertDropped(t, err, "%s %s: every port but the forwarded one is dropped, got %q", mode, f.name, body)
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

func TestModesIPv4(t *testing.T) {
	for _, p := range placements {
		for _, mode := range modes {
			t.Run(p.name+"/"+mode, func(t *testing.T) {
				tp := newTopology(t, podInterfaceName, p.imdsOnNode)
				pristine := tp.rules(t)
				tp.apply(t, cluster(mode, false, calico()))
				checkMode(t, tp, mode, ipv4)
				once := tp.rules(t)
				tp.apply(t, cluster(mode, false, calico()))
				assert.Equal(t, once, tp.rules(t), "a second run adds nothing")
				if mode == kops.PodMetadataAccessAllow {
					assert.Equal(t, pristine, once, "Allow leaves no rule")
				}
				if mode == kops.PodMetadataAccessForward {
					assert.Contains(t, tp.proxy.seen, podIP4, "the proxy saw the pod's address")
				}
			})
		}
	}
}

func TestModesIPv6(t *testing.T) {
	for _, mode := range modes {
		t.Run(mode, func(t *testing.T) {
			tp := newTopology(t, podInterfaceName, false)
			tp.apply(t, cluster(mode, true, calico()))
			checkMode(t, tp, mode, ipv4)
			checkMode(t, tp, mode, ipv6)
			once := tp.rules(t)
			tp.apply(t, cluster(mode, true, calico()))
			assert.Equal(t, once, tp.rules(t), "a second run adds nothing")
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
		tp := newTopology(t, podInterfaceName, false)
		pristine = tp.rules(t)
		tp.apply(t, cluster(mode, true, calico()))
		fresh[mode] = tp.rules(t)
	}
	require.Equal(t, pristine, fresh[kops.PodMetadataAccessAllow])

	tp := newTopology(t, podInterfaceName, false)
	sequence := []string{"Block", "Forward", "Allow", "Forward", "Block", "Allow", "Block"}
	for i, mode := range sequence {
		tp.apply(t, cluster(mode, true, calico()))
		if i > 0 {
			assert.Equal(t, fresh[mode], tp.rules(t), "rules after %s -> %s", sequence[i-1], mode)
		}
		checkMode(t, tp, mode, ipv4)
		checkMode(t, tp, mode, ipv6)
	}
}

// TestBlockHoldsWhenACNIAcceptsFirst: CNIs insert their own chains at the top of FORWARD and INPUT
// after the node script ran (Calico accepts pod traffic there). The drop happens in raw
// PREROUTING, before any of them.
func TestBlockHoldsWhenACNIAcceptsFirst(t *testing.T) {
	for _, p := range placements {
		for _, mode := range []string{kops.PodMetadataAccessBlock, kops.PodMetadataAccessForward} {
			t.Run(p.name+"/"+mode, func(t *testing.T) {
				tp := newTopology(t, podInterfaceName, p.imdsOnNode)
				tp.apply(t, cluster(mode, false, calico()))
				for _, cmd := range []string{"iptables", "ip6tables"} {
					for _, chain := range []string{"FORWARD", "INPUT"} {
						run(t, "ip", "netns", "exec", tp.node, cmd, "-w", "-I", chain, "1", "-j", "ACCEPT")
					}
				}
				checkMode(t, tp, mode, ipv4)
			})
		}
	}
}

// TestUnknownCNIBlocksAllButTheNode: without a known pod interface, Block drops metadata traffic
// from every interface but lo, so a pod on any veth is blocked and the node is not.
func TestUnknownCNIBlocksAllButTheNode(t *testing.T) {
	tp := newTopology(t, "veth9f3a", true)
	tp.apply(t, cluster(kops.PodMetadataAccessBlock, false, nil))
	checkMode(t, tp, kops.PodMetadataAccessBlock, ipv4)
}

// TestOtherPodInterfaceIsNotTheCNIs: the rules are scoped to the CNI's interfaces; a pod on another
// interface is not matched. This is the cost of scoping, and why hostInterface exists.
func TestRulesAreScopedToThePodInterfaces(t *testing.T) {
	tp := newTopology(t, "eth1", false)
	tp.apply(t, cluster(kops.PodMetadataAccessBlock, false, calico()))
	_, err := get(tp.pod, net.JoinHostPort(imds4, "80"))
	assert.NoError(t, err, "eth1 is not a calico interface, so its traffic is not matched")
}

// TestForwardWithoutANodeAddressChangesNothing: when the node address cannot be found (metadata
// bound on the node, so the route to it is local), the script fails before touching any rule and
// says what to do; the unit then keeps kubelet from starting.
func TestForwardWithoutANodeAddressChangesNothing(t *testing.T) {
	tp := newTopology(t, podInterfaceName, true)
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

// hostRules is iptables -S of the namespace the test runs in: the scripts run only in theirs.
func hostRules(t *testing.T) string {
	t.Helper()
	var out string
	for _, cmd := range []string{"iptables", "ip6tables"} {
		for _, table := range []string{"raw", "nat", "filter"} {
			out += run(t, cmd, "-w", "-t", table, "-S")
		}
	}
	return out
}
