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
	"fmt"
	"net"
	"net/http"
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
	nodeIP4, cloud4 = "198.51.100.10", "198.51.100.1"
	nodeIP6, cloud6 = "2001:db8:2::10", "2001:db8:2::1"
	imds4, imds6    = "169.254.169.254", "fd00:ec2::254"
	// nat64IMDS is imds4 behind the well-known NAT64 prefix 64:ff9b::/96, as a translator serves it.
	nat64IMDS        = "64:ff9b::a9fe:a9fe"
	otherPort        = "81"
	proxyPort        = "8181"
	podInterfaceName = "cali1234"
)

// topology is a node with one pod, wired to it as a CNI wires it, and the cloud behind the node's
// primary interface (eth0).
type topology struct {
	node, pod, cloud string
	// imdsOnNode: the fake metadata service is bound on the node itself (its INPUT path) instead of
	// behind the primary interface (its FORWARD path); the script is then told the node address.
	imdsOnNode bool
	// pod4, pod6 are the source addresses of the pod's packets to instance metadata, which the
	// metadata service or the proxy sees.
	pod4, pod6 string
	proxy      *fakeProxy
}

// newTopology builds the namespaces, wires the pod with w and starts the fake metadata service
// (ports 80 and 81) and the fake credentials proxy on the node address, port 8181.
func newTopology(t *testing.T, w wiring, imdsOnNode bool) *topology {
	needRootAndTools(t)
	tp := &topology{node: newNetns(t, "node"), pod: newNetns(t, "pod"), cloud: newNetns(t, "cloud"), imdsOnNode: imdsOnNode}
	ip := func(ns string, args ...string) { run(t, append([]string{"ip", "-n", ns}, args...)...) }

	run(t, "ip", "link", "add", "eth0", "netns", tp.node, "type", "veth", "peer", "name", "eth0", "netns", tp.cloud)
	ip(tp.node, "link", "set", "eth0", "up")
	ip(tp.cloud, "link", "set", "eth0", "up")
	ip(tp.node, "addr", "add", nodeIP4+"/24", "dev", "eth0")
	ip(tp.node, "addr", "add", nodeIP6+"/64", "dev", "eth0", "nodad")
	ip(tp.node, "route", "add", "default", "via", cloud4)
	ip(tp.node, "-6", "route", "add", "default", "via", cloud6)
	run(t, "ip", "netns", "exec", tp.node, "sysctl", "-q", "-w", "net.ipv4.ip_forward=1", "net.ipv6.conf.all.forwarding=1")
	ip(tp.cloud, "addr", "add", cloud4+"/24", "dev", "eth0")
	ip(tp.cloud, "addr", "add", cloud6+"/64", "dev", "eth0", "nodad")
	// Every pod range of every wiring lies in these, behind the node.
	ip(tp.cloud, "route", "add", "192.0.2.0/24", "via", nodeIP4)
	ip(tp.cloud, "-6", "route", "add", "2001:db8:1::/48", "via", nodeIP6)

	tp.pod4, tp.pod6 = w.wire(t, tp)

	imdsNS := tp.cloud
	if imdsOnNode {
		imdsNS = tp.node
	}
	ip(imdsNS, "addr", "add", imds4+"/32", "dev", "lo")
	ip(imdsNS, "addr", "add", imds6+"/128", "dev", "lo", "nodad")
	ip(imdsNS, "addr", "add", nat64IMDS+"/128", "dev", "lo", "nodad")
	imds := &fakeServer{name: "imds"}
	for _, addr := range []string{imds4, imds6, nat64IMDS} {
		for _, port := range []string{"80", otherPort} {
			serve(t, imdsNS, net.JoinHostPort(addr, port), imds)
		}
	}
	tp.proxy = &fakeProxy{node: tp.node, fakeServer: fakeServer{name: "kube2iam"}}
	serve(t, tp.node, net.JoinHostPort(nodeIP4, proxyPort), tp.proxy)
	serve(t, tp.node, net.JoinHostPort(nodeIP6, proxyPort), tp.proxy)
	return tp
}

// fakeProxy stands in for kube2iam: a process on the node's network (the node namespace) that,
// for each request, fetches instance metadata itself over the request's family, as kube2iam
// fetches the pod's credentials, and answers with the caller's address. A request it cannot pass
// on fails, so a proxy cut off from metadata is seen.
type fakeProxy struct {
	node string
	fakeServer
}

func (p *fakeProxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	host, _, _ := net.SplitHostPort(r.RemoteAddr)
	imds := imds4
	if strings.Contains(host, ":") {
		imds = imds6
	}
	if _, err := get(p.node, net.JoinHostPort(imds, "80")); err != nil {
		http.Error(w, "kube2iam cannot reach instance metadata: "+err.Error(), http.StatusBadGateway)
		return
	}
	p.fakeServer.ServeHTTP(w, r)
}

// wiring connects the pod namespace to the node the way one CNI (or a second network, or an
// overlay) does, and returns the pod's source addresses toward instance metadata.
type wiring struct {
	name string
	wire func(t *testing.T, tp *topology) (pod4, pod6 string)
}

func ipIn(t *testing.T, ns string) func(args ...string) {
	return func(args ...string) { run(t, append([]string{"ip", "-n", ns}, args...)...) }
}

// routed is a veth whose node end carries no address: the pod's gateway 169.254.1.1 is answered
// by proxy ARP and its IPv6 gateway is the node end's link-local address, and the node routes the
// pod's /32 to the veth. Calico (cali*), Cilium (lxc*), the Amazon VPC CNI (eni*) and its branch
// ENI pods (vlan*) wire pods so.
func routed(hostSide string) wiring {
	return wiring{name: hostSide, wire: func(t *testing.T, tp *topology) (string, string) {
		const pod4, pod6 = "192.0.2.2", "2001:db8:1::2"
		node, pod := ipIn(t, tp.node), ipIn(t, tp.pod)
		run(t, "ip", "link", "add", hostSide, "netns", tp.node, "type", "veth", "peer", "name", "eth0", "netns", tp.pod)
		node("link", "set", hostSide, "up")
		node("addr", "add", "fe80::1/64", "dev", hostSide, "nodad")
		// Proxy ARP without its random delay, as Calico sets it: the pod's first packet is answered.
		run(t, "ip", "netns", "exec", tp.node, "sysctl", "-q", "-w",
			"net.ipv4.conf."+hostSide+".proxy_arp=1", "net.ipv4.neigh."+hostSide+".proxy_delay=0")
		node("route", "add", pod4+"/32", "dev", hostSide)
		node("-6", "route", "add", pod6+"/128", "dev", hostSide)
		pod("link", "set", "eth0", "up")
		pod("addr", "add", pod4+"/32", "dev", "eth0")
		pod("addr", "add", pod6+"/128", "dev", "eth0", "nodad")
		pod("route", "add", "169.254.1.1", "dev", "eth0", "scope", "link")
		pod("route", "add", "default", "via", "169.254.1.1", "dev", "eth0")
		pod("-6", "route", "add", "default", "via", "fe80::1", "dev", "eth0")
		return pod4, pod6
	}}
}

// bridged is a veth whose node end is a port of a bridge holding the pods' gateway: Flannel and
// the bridge CNI (cni0), kubenet (cbr0), Weave (weave), kube-router (kube-bridge). iptables sees
// the bridge as the input interface.
func bridged(bridge string) wiring {
	return wiring{name: bridge, wire: func(t *testing.T, tp *topology) (string, string) {
		addBridgedPod(t, tp, bridge, "veth0a1b", "eth0", 0)
		pod := ipIn(t, tp.pod)
		pod("route", "add", "default", "via", "192.0.2.1")
		pod("-6", "route", "add", "default", "via", "2001:db8:1::1")
		return "192.0.2.2", "2001:db8:1::2"
	}}
}

// addBridgedPod wires podSide of the pod to a port of bridge on the node, in the n-th /25 and /64
// of the pod ranges: the gateway is the first address, the pod the second.
func addBridgedPod(t *testing.T, tp *topology, bridge, port, podSide string, n int) {
	node, pod := ipIn(t, tp.node), ipIn(t, tp.pod)
	node("link", "add", bridge, "type", "bridge")
	node("addr", "add", fmt.Sprintf("192.0.2.%d/25", 128*n+1), "dev", bridge)
	node("addr", "add", fmt.Sprintf("2001:db8:1:%d::1/64", n), "dev", bridge, "nodad")
	node("link", "set", bridge, "up")
	run(t, "ip", "link", "add", port, "netns", tp.node, "type", "veth", "peer", "name", podSide, "netns", tp.pod)
	node("link", "set", port, "master", bridge)
	node("link", "set", port, "up")
	pod("link", "set", podSide, "up")
	pod("addr", "add", fmt.Sprintf("192.0.2.%d/25", 128*n+2), "dev", podSide)
	pod("addr", "add", fmt.Sprintf("2001:db8:1:%d::2/64", n), "dev", podSide, "nodad")
}

// multus is a Calico pod (eth0 on a cali veth, default route) with a Multus secondary network:
// net1, on a bridge the primary CNI knows nothing of, with a route to instance metadata.
func multus() wiring {
	return wiring{name: "multus-net1", wire: func(t *testing.T, tp *topology) (string, string) {
		routed(podInterfaceName).wire(t, tp)
		addBridgedPod(t, tp, "mybr0", "veth9c8d", "net1", 1)
		pod := ipIn(t, tp.pod)
		pod("route", "add", imds4+"/32", "via", "192.0.2.129", "dev", "net1")
		pod("-6", "route", "add", imds6+"/128", "via", "2001:db8:1:1::1", "dev", "net1")
		return "192.0.2.130", "2001:db8:1:1::2"
	}}
}

// overlay is traffic from a pod on another node, arriving through a VXLAN device (Calico's
// vxlan.calico, Flannel's flannel.1): the pod namespace plays the other node, joined to this one
// by an underlay link (eth1) that carries the VXLAN packets.
func overlay(device string) wiring {
	return wiring{name: device, wire: func(t *testing.T, tp *topology) (string, string) {
		const under, remote = "203.0.113.1", "203.0.113.2"
		node, pod := ipIn(t, tp.node), ipIn(t, tp.pod)
		run(t, "ip", "link", "add", "eth1", "netns", tp.node, "type", "veth", "peer", "name", "eth1", "netns", tp.pod)
		node("link", "set", "eth1", "up")
		node("addr", "add", under+"/24", "dev", "eth1")
		pod("link", "set", "eth1", "up")
		pod("addr", "add", remote+"/24", "dev", "eth1")
		node("link", "add", device, "type", "vxlan", "id", "4096", "local", under, "remote", remote, "dstport", "4789", "dev", "eth1")
		pod("link", "add", "vxlan0", "type", "vxlan", "id", "4096", "local", remote, "remote", under, "dstport", "4789", "dev", "eth1")
		node("addr", "add", "192.0.2.1/25", "dev", device)
		node("addr", "add", "2001:db8:1::1/64", "dev", device, "nodad")
		node("link", "set", device, "up")
		pod("addr", "add", "192.0.2.2/25", "dev", "vxlan0")
		pod("addr", "add", "2001:db8:1::2/64", "dev", "vxlan0", "nodad")
		pod("link", "set", "vxlan0", "up")
		pod("route", "add", "default", "via", "192.0.2.1")
		pod("-6", "route", "add", "default", "via", "2001:db8:1::1")
		return "192.0.2.2", "2001:db8:1::2"
	}}
}

// cluster is an AWS cluster on the given networking in the given mode.
func cluster(mode string, ipv6 bool, networking *kops.NetworkingSpec) *kops.Cluster {
	c := &kops.Cluster{Spec: kops.ClusterSpec{
		CloudProvider:     "aws",
		NonMasqueradeCIDR: "100.64.0.0/10",
		Networking:        networking,
		PodMetadataAccess: &kops.PodMetadataAccessSpec{Mode: mode},
	}}
	if mode == kops.PodMetadataAccessForward {
		c.Spec.PodMetadataAccess.Forward = &kops.PodMetadataForwardSpec{BaseRoleARN: "arn:aws:iam::123456789012:role/"}
	}
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
	out, err := tp.tryApply(t, c, os.Getenv("PATH"))
	require.NoError(t, err, "the node script failed: %s", out)
	return out
}

// tryApply runs the script of c in the node namespace with the given PATH.
func (tp *topology) tryApply(t *testing.T, c *kops.Cluster, path string) (string, error) {
	t.Helper()
	cmd := exec.Command("ip", "netns", "exec", tp.node, "/bin/sh", tp.writeScript(t, c))
	cmd.Env = tp.env(path)
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// writeScript writes the script kops generates for c to a file of the test and returns its path.
func (tp *topology) writeScript(t *testing.T, c *kops.Cluster) string {
	t.Helper()
	script, err := nodesetup.Script(c)
	require.NoError(t, err)
	file := filepath.Join(t.TempDir(), nodesetup.ScriptFile)
	require.NoError(t, os.WriteFile(file, script, 0o755))
	return file
}

// env is the script's environment: the given PATH, and the node address where the route to
// instance metadata is local.
func (tp *topology) env(path string) []string {
	env := []string{"PATH=" + path, "KOPS_METADATA_WAIT_SECONDS=2"}
	if tp.imdsOnNode {
		env = append(env, "KOPS_METADATA_NODE_IP="+nodeIP4, "KOPS_METADATA_NODE_IPV6="+nodeIP6)
	}
	return env
}

// rules is `iptables -S` and `ip6tables -S` of every table the script touches, in the node.
func (tp *topology) rules(t *testing.T) string {
	t.Helper()
	var b strings.Builder
	for _, cmd := range []string{"iptables", "ip6tables"} {
		for _, table := range tables {
			b.WriteString("# " + cmd + " -t " + table + " -S\n")
			b.WriteString(run(t, "ip", "netns", "exec", tp.node, cmd, "-w", "-t", table, "-S"))
		}
	}
	return b.String()
}

// tables are every table the script may touch, in this and earlier versions.
var tables = []string{"raw", "mangle", "nat", "filter"}
