package netnstest

import (
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"k8s.io/kops/pkg/apis/kops"
	"k8s.io/kops/pkg/model/nodesetup"
)

// The addresses of the topology: documentation ranges, inside the test's namespaces only.
const (
	podIP4, podGW4   = "192.0.2.2", "192.0.2.1"
	podIP6, podGW6   = "2001:db8:1::2", "2001:db8:1::1"
	nodeIP4, cloud4  = "198.51.100.10", "198.51.100.1"
	nodeIP6, cloud6  = "2001:db8:2::10", "2001:db8:2::1"
	imds4, imds6     = "169.254.169.254", "fd00:ec2::254"
	otherPort        = "81"
	proxyPort        = "8181"
	podInterfaceName = "cali1234"
)

// topology is a node with one pod and the cloud behind its primary interface.
type topology struct {
	node, pod, cloud string
	// imdsOnNode: the fake metadata service is bound on the node itself (its INPUT path) instead of
	// behind the primary interface (its FORWARD path); the script is then told the node address.
	imdsOnNode bool
	proxy      *fakeServer
}

// newTopology builds the namespaces and starts the fake metadata service (ports 80 and 81) and the
// fake credentials proxy on the node address, port 8181.
func newTopology(t *testing.T, podInterface string, imdsOnNode bool) *topology {
	needRootAndTools(t)
	tp := &topology{node: newNetns(t, "node"), pod: newNetns(t, "pod"), cloud: newNetns(t, "cloud"), imdsOnNode: imdsOnNode}
	ip := func(ns string, args ...string) { run(t, append([]string{"ip", "-n", ns}, args...)...) }

	run(t, "ip", "link", "add", podInterface, "netns", tp.node, "type", "veth", "peer", "name", "eth0", "netns", tp.pod)
	run(t, "ip", "link", "add", "eth0", "netns", tp.node, "type", "veth", "peer", "name", "eth0", "netns", tp.cloud)
	for _, l := range [][]string{{tp.node, podInterface}, {tp.node, "eth0"}, {tp.pod, "eth0"}, {tp.cloud, "eth0"}} {
		ip(l[0], "link", "set", l[1], "up")
	}
	ip(tp.pod, "addr", "add", podIP4+"/24", "dev", "eth0")
	ip(tp.pod, "addr", "add", podIP6+"/64", "dev", "eth0", "nodad")
	ip(tp.pod, "route", "add", "default", "via", podGW4)
	ip(tp.pod, "-6", "route", "add", "default", "via", podGW6)
	ip(tp.node, "addr", "add", podGW4+"/24", "dev", podInterface)
	ip(tp.node, "addr", "add", podGW6+"/64", "dev", podInterface, "nodad")
	ip(tp.node, "addr", "add", nodeIP4+"/24", "dev", "eth0")
	ip(tp.node, "addr", "add", nodeIP6+"/64", "dev", "eth0", "nodad")
	ip(tp.node, "route", "add", "default", "via", cloud4)
	ip(tp.node, "-6", "route", "add", "default", "via", cloud6)
	run(t, "ip", "netns", "exec", tp.node, "sysctl", "-q", "-w", "net.ipv4.ip_forward=1", "net.ipv6.conf.all.forwarding=1")
	ip(tp.cloud, "addr", "add", cloud4+"/24", "dev", "eth0")
	ip(tp.cloud, "addr", "add", cloud6+"/64", "dev", "eth0", "nodad")
	ip(tp.cloud, "route", "add", "192.0.2.0/24", "via", nodeIP4)
	ip(tp.cloud, "-6", "route", "add", "2001:db8:1::/64", "via", nodeIP6)

	imdsNS := tp.cloud
	if imdsOnNode {
		imdsNS = tp.node
	}
	ip(imdsNS, "addr", "add", imds4+"/32", "dev", "lo")
	ip(imdsNS, "addr", "add", imds6+"/128", "dev", "lo", "nodad")
	imds := &fakeServer{name: "imds"}
	for _, addr := range []string{imds4, imds6} {
		for _, port := range []string{"80", otherPort} {
			serve(t, imdsNS, net.JoinHostPort(addr, port), imds)
		}
	}
	tp.proxy = &fakeServer{name: "kube2iam"}
	serve(t, tp.node, net.JoinHostPort(nodeIP4, proxyPort), tp.proxy)
	serve(t, tp.node, net.JoinHostPort(nodeIP6, proxyPort), tp.proxy)
	return tp
}

// cluster is an AWS cluster on calico in the given mode.
func cluster(mode string, ipv6 bool, networking *kops.NetworkingSpec) *kops.Cluster {
	c := &kops.Cluster{Spec: kops.ClusterSpec{
		CloudProvider:     "aws",
		NonMasqueradeCIDR: "100.64.0.0/10",
		Networking:        networking,
		PodMetadataAccess: &kops.PodMetadataAccessSpec{Mode: mode},
	}}
	if ipv6 {
		c.Spec.NonMasqueradeCIDR = "::/0"
	}
	return c
}

func calico() *kops.NetworkingSpec { return &kops.NetworkingSpec{Calico: &kops.CNIPresence{}} }

// apply renders the script kops generates for c and runs it in the node namespace, as the unit
// would. The node address is discovered from the route, except where the metadata service is
// bound on the node itself and the route to it is local.
func (tp *topology) apply(t *testing.T, c *kops.Cluster) string {
	t.Helper()
	script, err := nodesetup.Script(c)
	require.NoError(t, err)
	path := filepath.Join(t.TempDir(), nodesetup.ScriptFile)
	require.NoError(t, os.WriteFile(path, script, 0o755))
	cmd := exec.Command("ip", "netns", "exec", tp.node, "/bin/sh", path)
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "KOPS_METADATA_WAIT_SECONDS=2"}
	if tp.imdsOnNode {
		cmd.Env = append(cmd.Env, "KOPS_METADATA_NODE_IP="+nodeIP4, "KOPS_METADATA_NODE_IPV6="+nodeIP6)
	}
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "the node script failed: %s", out)
	return string(out)
}

// rules is `iptables -S` and `ip6tables -S` of every table the script touches, in the node.
func (tp *topology) rules(t *testing.T) string {
	t.Helper()
	var b strings.Builder
	for _, cmd := range []string{"iptables", "ip6tables"} {
		for _, table := range []string{"raw", "nat", "filter"} {
			b.WriteString("# " + cmd + " -t " + table + " -S\n")
			b.WriteString(run(t, "ip", "netns", "exec", tp.node, cmd, "-w", "-t", table, "-S"))
		}
	}
	return b.String()
}
