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

package nodecluster

import (
	"context"
	"fmt"
	"net/netip"
	"os"
	"os/exec"
	"path/filepath"

	corev1 "k8s.io/api/core/v1"
)

// A cluster has one or more nodes. The first, node-1, also runs the control plane (etcd,
// kube-apiserver, kube-controller-manager, kube-scheduler); every node runs containerd, kubelet and
// kube-proxy in a network namespace, a mount namespace and a folder of its own. The nodes share a
// link: a bridge in a namespace of the cluster's (the "switch", kops-node-<slot>-net) that every
// node's eth0 and the host's veth are plugged into, so that the nodes reach each other and the
// host reaches each of them, as machines of one subnet do. Each node routes the other nodes' pod
// ranges to them (host-gw style), over IPv4 and IPv6.

// Node is one node of a cluster.
type Node struct {
	// Name is the node's name: node-1, node-2, ... (node-1 runs the control plane).
	Name string
	// IP and IPv6 are the node's addresses (kubelet's --node-ip, both families).
	IP, IPv6 string
	// PodCIDRs are the node's pod ranges, IPv4 then IPv6: every pod gets an address of each.
	PodCIDRs []string
	// NetNS and MountNS are the node's namespace files, for nsenter --net= and --mount=.
	NetNS, MountNS string

	layout nodeLayout
}

// Command is a command that runs on the node, as Cluster.NodeCommand does on the first node.
func (n Node) Command(ctx context.Context, name string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, "nsenter", append([]string{"--mount=" + n.MountNS, "--net=" + n.NetNS, "--", name}, args...)...)
	cmd.Env = append([]string(nil), nodeEnv...)
	return cmd
}

// Start starts binary on the node (its namespaces, its cgroup), writing its output to
// LogFile(name), as Cluster.StartOnNode does on the first node. The caller stops it; Down kills it
// if the caller does not get to, and StopNode with the rest of the node.
func (n Node) Start(name, binary string, args ...string) (*exec.Cmd, error) {
	log, err := os.OpenFile(n.LogFile(name), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, err
	}
	defer func() { _ = log.Close() }() // the started process writes through its own copy
	cmd, err := nodeProcess(n.layout, binary, args...)
	if err != nil {
		return nil, err
	}
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting %s on %s: %w", name, n.Name, err)
	}
	return cmd, nil
}

// LogFile is the path of the log of one of the node's daemons (containerd, kubelet, kube-proxy),
// or of a process Start started.
func (n Node) LogFile(daemon string) string {
	return filepath.Join(n.layout.p.logs(), n.layout.daemon(daemon)+".log")
}

// Node returns the node named name.
func (c *Cluster) Node(name string) (Node, error) {
	for _, n := range c.Nodes {
		if n.Name == name {
			return n, nil
		}
	}
	names := make([]string, 0, len(c.Nodes))
	for _, n := range c.Nodes {
		names = append(names, n.Name)
	}
	return Node{}, fmt.Errorf("the cluster has no node %q (its nodes: %v)", name, names)
}

// OnNode pins pod to the node named node (a node selector on its hostname label, so the scheduler
// still checks that it fits) and returns it.
func OnNode(pod *corev1.Pod, node string) *corev1.Pod {
	if pod.Spec.NodeSelector == nil {
		pod.Spec.NodeSelector = map[string]string{}
	}
	pod.Spec.NodeSelector[corev1.LabelHostname] = node
	return pod
}

// nodeLayout is where one node's pieces are: its namespaces, addresses, files and cgroup, all
// derived from the cluster's slot and the node's index (1 for the first).
type nodeLayout struct {
	s     slot
	index int
	// p holds the node's files; the first node's are the cluster's folder itself (as when a cluster
	// had one node), the others' a folder node-<index> in it. Every node logs to the cluster's logs/.
	p paths
}

func layoutNodes(p paths, s slot, count int) []nodeLayout {
	nodes := make([]nodeLayout, 0, count)
	for i := 1; i <= count; i++ {
		np := p
		if i > 1 {
			np = paths{dir: filepath.Join(p.dir, fmt.Sprintf("node-%d", i)), logDir: p.logs()}
		}
		nodes = append(nodes, nodeLayout{s: s, index: i, p: np})
	}
	return nodes
}

func (n nodeLayout) name() string { return fmt.Sprintf("node-%d", n.index) }

// The first node keeps the slot's names, so that a one-node cluster is as it always was.
func (n nodeLayout) netnsName() string {
	if n.index == 1 {
		return n.s.netnsName()
	}
	return fmt.Sprintf("%s-%d", n.s.netnsName(), n.index)
}
func (n nodeLayout) netnsPath() string { return filepath.Join("/run/netns", n.netnsName()) }

// switchPort is the node's end of its link on the switch's bridge.
func (n nodeLayout) switchPort() string { return fmt.Sprintf("n%d", n.index) }

// The nodes' addresses follow the host's: 198.18.<slot>.1 is the host, .2 the first node, .3 the
// second; IPv6 likewise in a unique local range of the slot's.
func (n nodeLayout) ip() string   { return fmt.Sprintf("198.18.%d.%d", n.s, n.index+1) }
func (n nodeLayout) ipv6() string { return fmt.Sprintf("fd00:198:18:%d::%d", n.s, n.index+1) }

// podCIDR and podCIDRv6 are the node's pod ranges: the first node's is PodCIDR (PodCIDRv6), the
// next node's the next /24 (/64) of ClusterCIDR (ClusterCIDRv6).
func (n nodeLayout) podCIDR() string { return fmt.Sprintf("100.96.%d.0/24", n.index-1) }
func (n nodeLayout) podCIDRv6() string {
	// Canonical (RFC 5952): the API server warns about fd00:100:96:0::/64.
	return netip.MustParsePrefix(fmt.Sprintf("fd00:100:96:%x::/64", n.index-1)).String()
}

// cgroup is the node's cgroup and its kubelet's cgroupRoot: the cluster's for the first node, a
// child of it for the others, so that the whole cluster stays one subtree.
func (n nodeLayout) cgroup() string {
	if n.index == 1 {
		return n.s.cgroupName()
	}
	return filepath.Join(n.s.cgroupName(), n.name())
}

// daemon is the name a daemon of the node is recorded and logged under: the first node's daemons
// keep their plain names (kubelet), the others' carry the node's (node-2-kubelet).
func (n nodeLayout) daemon(name string) string {
	if n.index == 1 {
		return name
	}
	return n.name() + "-" + name
}

func (n nodeLayout) public() Node {
	return Node{Name: n.name(), IP: n.ip(), IPv6: n.ipv6(), PodCIDRs: []string{n.podCIDR(), n.podCIDRv6()},
		NetNS: n.netnsPath(), MountNS: n.p.mountNS(), layout: n}
}
