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
	"fmt"
	"regexp"
	"strings"
	"sync"

	"k8s.io/kops/pkg/apis/kops"
)

// The chains the node script owns. Each is filled in one iptables-restore transaction and jumped to
// from the top of its parent chains, so removing a mode is flushing and deleting these chains.
const (
	// ChainNAT (nat PREROUTING) sends pods' TCP/80 metadata requests to the credentials proxy.
	ChainNAT = "KOPS-METADATA-NAT"
	// ChainRaw (raw PREROUTING) drops pods' metadata traffic before conntrack, NAT and every filter
	// chain: a CNI that later inserts an ACCEPT at the top of FORWARD (Calico does) cannot undo it.
	ChainRaw = "KOPS-METADATA-RAW"
	// ChainBackstop (mangle FORWARD and INPUT) drops whatever addresses instance metadata only after
	// PREROUTING: sent there by someone else's NAT (kube-proxy for a Service whose endpoint is the
	// metadata address), or, for a metadata address bound on the node, by a source route. It sits
	// in mangle, which runs before filter, so a CNI's ACCEPT at the top of filter FORWARD or INPUT
	// does not skip it.
	ChainBackstop = "KOPS-METADATA"
	// ChainRewritten (mangle POSTROUTING) drops what leaves for instance metadata although it was
	// addressed elsewhere when conntrack first saw it: a packet that entered addressed to the node
	// with a loose source route (IPv4 LSRR, where net.ipv4.conf.*.accept_source_route is on) gets
	// the metadata address only after the FORWARD hook, so no chain before POSTROUTING sees it.
	// POSTROUTING cannot tell the input interface, so the node's own packets are told apart by
	// their conntrack entry, whose original destination is the metadata address; a packet without
	// one (untracked, invalid) that leaves for metadata is dropped, since no request is made of it.
	ChainRewritten = "KOPS-METADATA-POST"
)

// everyInterfaceButLoopback is the pod match unless the user narrows it: every packet entering the
// node from anywhere but the node itself. The node's own processes (host-network pods, kubelet,
// the credentials proxy) send through OUTPUT and never enter PREROUTING or FORWARD; their packets
// to a metadata address bound on the node come back in through lo. Everything else is a pod, a
// container, another node's pod through an overlay, or another machine, whatever its interface is
// called; so no CNI's interface names need to be known, and none can be missed.
const everyInterfaceButLoopback = "! -i lo"

// chainDef places an owned chain. The order of chainDefs is the order of installation: the DNAT
// exists before the raw chain lets TCP/80 through, so a switch to Forward never opens a window.
type chainDef struct {
	Table   string
	Name    string
	Parents []string
	// Retired: an earlier version installed the chain here; it is only removed, so that running
	// this script on a machine an earlier one set up leaves exactly this mode's rules.
	Retired bool
}

var chainDefs = []chainDef{
	{Table: "nat", Name: ChainNAT, Parents: []string{"PREROUTING"}},
	{Table: "raw", Name: ChainRaw, Parents: []string{"PREROUTING"}},
	{Table: "mangle", Name: ChainBackstop, Parents: []string{"FORWARD", "INPUT"}},
	{Table: "mangle", Name: ChainRewritten, Parents: []string{"POSTROUTING"}},
	// The backstop lived in filter, where a CNI's ACCEPT above it skipped it.
	{Table: "filter", Name: ChainBackstop, Parents: []string{"FORWARD", "INPUT"}, Retired: true},
}

// Chain is one owned chain of a family with the rules the mode wants in it; Present false means
// the script removes it (and the jumps to it) if an earlier mode left it.
type Chain struct {
	chainDef
	Present bool
	Rules   []string
}

// When a family's rules are applied.
const (
	// Always: the cluster uses the family; a missing command is an error.
	Always = "always"
	// IfKernelHasIt: the cluster does not use the family, but a kernel with IPv6 lets a pod send
	// IPv6 all the same, so the rules are applied wherever the kernel has it, and a missing command
	// is then an error.
	IfKernelHasIt = "if the kernel has it"
	// CleanupOnly: nothing to hold (Allow, or no metadata address of this family); only what an
	// earlier mode left is removed, where the command exists.
	CleanupOnly = "cleanup only"
)

// Family is what the script does with one of iptables or ip6tables.
type Family struct {
	Name string
	// Cmd is iptables or ip6tables; Cmd-restore fills the chains.
	Cmd string
	// When is Always, IfKernelHasIt or CleanupOnly.
	When string
	// Mode is what this family enforces: the cluster's mode, or Block where Forward's proxy cannot
	// be reached over this family (an IPv4 cluster's proxy listens on IPv4 only).
	Mode string
	// IMDS is the instance metadata address of this family.
	IMDS string
	// RouteFlag is ip's family flag (-4, -6), to find the node address from the route to IMDS.
	RouteFlag string
	// NodeIPVar is the shell variable holding the node address; NodeIPEnv overrides discovery.
	NodeIPVar string
	NodeIPEnv string
	// KernelFile exists where the kernel has the family (IfKernelHasIt).
	KernelFile string
	// Summary says in a line what the script does with the family.
	Summary string
	// NeedsNodeIP: a rule sends traffic to the node address (Forward).
	NeedsNodeIP bool
	Chains      []Chain
}

// Rules is everything the node script is rendered from.
type Rules struct {
	Mode string
	// HostInterface narrows the rules to traffic entering on this interface pattern; empty, they
	// hold every interface but lo.
	HostInterface string
	// Port is the credentials proxy's port (Forward).
	Port     int32
	Families []Family
}

// interfaceName is what iptables accepts after -i: up to 15 characters, a trailing + as wildcard.
// It is also what keeps a user's hostInterface from being shell or iptables syntax in the script.
var interfaceName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9_.-]{1,15}\+?$`) })

// RulesFor derives the node rules of a group's machines from a completed cluster (the group's mode
// is the cluster's but where kops.ClusterSpec.PodMetadataFor derives another; a nil group gets the
// cluster's own). spec.networking plays no part: the
// rules hold every interface but lo, unless spec.podMetadataAccess.hostInterface narrows them.
func RulesFor(cluster *kops.Cluster, ig *kops.InstanceGroup) (*Rules, error) {
	spec := &cluster.Spec
	r := &Rules{Mode: effectiveMode(spec, ig), Port: kops.DefaultPodMetadataForwardPort}
	if p := spec.PodMetadataAccess; p != nil && p.Forward != nil && p.Forward.Port != nil {
		r.Port = *p.Forward.Port
	}
	switch r.Mode {
	case kops.PodMetadataAccessAllow, kops.PodMetadataAccessBlock, kops.PodMetadataAccessForward:
	default:
		return nil, fmt.Errorf("spec.podMetadataAccess.mode: Unsupported value: %q: supported values: %q, %q, %q",
			r.Mode, kops.PodMetadataAccessAllow, kops.PodMetadataAccessBlock, kops.PodMetadataAccessForward)
	}
	if r.Port < 1 || r.Port > 65535 {
		return nil, fmt.Errorf("spec.podMetadataAccess.forward.port: Invalid value: %d: must be between 1 and 65535", r.Port)
	}
	match := everyInterfaceButLoopback
	if p := spec.PodMetadataAccess; p != nil && p.HostInterface != "" {
		name := p.HostInterface
		if !interfaceName().MatchString(name) || strings.TrimSuffix(name, "+") == "lo" {
			return nil, fmt.Errorf("spec.podMetadataAccess.hostInterface: Invalid value: %q: must be an interface name of at most 15 letters, digits or _.-, optionally ending in + (a prefix), and not lo", name)
		}
		match = "-i " + name
		r.HostInterface = name
	}
	imds4, imds6 := metadataAddresses(spec.CloudProvider)
	v4 := family("IPv4", "iptables", imds4, 32, "-4", "node_ip4", "KOPS_METADATA_NODE_IP", Always, r.Mode, r.Port, match)
	v4.Summary = "mode " + r.Mode + "."
	if r.Mode == kops.PodMetadataAccessAllow {
		v4.Summary = "rules an earlier mode left are removed."
	}
	var v6 Family
	switch {
	case imds6 == "" || r.Mode == kops.PodMetadataAccessAllow:
		if imds6 == "" {
			imds6 = awsMetadataIPv6 // no IPv6 metadata: only to remove what an earlier run may have left
		}
		v6 = family("IPv6", "ip6tables", imds6, 128, "-6", "node_ip6", "KOPS_METADATA_NODE_IPV6", CleanupOnly, kops.PodMetadataAccessAllow, r.Port, match)
		v6.Summary = "nothing to hold; only what an earlier mode left is removed."
	case spec.IsIPv6Only():
		v6 = family("IPv6", "ip6tables", imds6, 128, "-6", "node_ip6", "KOPS_METADATA_NODE_IPV6", Always, r.Mode, r.Port, match)
		v6.Summary = "mode " + r.Mode + "."
	default:
		// A pod can send IPv6 wherever the kernel has it, whatever the cluster's addresses; an IPv4
		// cluster's proxy listens on the node's IPv4 address only, so IPv6 requests are dropped.
		v6 = family("IPv6", "ip6tables", imds6, 128, "-6", "node_ip6", "KOPS_METADATA_NODE_IPV6", IfKernelHasIt, kops.PodMetadataAccessBlock, r.Port, match)
		v6.KernelFile = ipv6KernelFile
		v6.Summary = "not used by this cluster, but held wherever the kernel has it: mode Block."
		if r.Mode == kops.PodMetadataAccessForward {
			v6.Summary = "not used by this cluster, but held wherever the kernel has it: mode Block, since the proxy listens on IPv4."
		}
	}
	r.Families = []Family{v4, v6}
	return r, nil
}

// ipv6KernelFile lists the node's IPv6 addresses and exists exactly when the kernel has IPv6: it
// is absent where IPv6 is not built in or is disabled at boot (ipv6.disable=1), and then no socket,
// a pod's or the node's, can send IPv6, so there is nothing to hold.
const ipv6KernelFile = "/proc/net/if_inet6"

// The instance metadata addresses the rules protect.
const (
	defaultMetadataIPv4 = "169.254.169.254"
	awsMetadataIPv6     = "fd00:ec2::254"
)

// metadataAddresses returns a cloud's instance metadata addresses: IPv4, and IPv6 where the cloud
// serves metadata over IPv6 (AWS's Nitro endpoint, GCE's and Scaleway's for IPv6 instances). The
// IPv4 address is kops.InstanceMetadataAddress's. OpenStack's IPv6 metadata is link-local
// (fe80::a9fe:a9fe), which no node routes, so a pod reaches it only on a link it shares with the
// metadata service, where no rule of the node sees it (see docs/metadata-access-node.md).
func metadataAddresses(cloud string) (ipv4, ipv6 string) {
	ipv4, ok := kops.InstanceMetadataAddress(cloud)
	if !ok {
		ipv4 = defaultMetadataIPv4
	}
	switch cloud {
	case "aws":
		ipv6 = awsMetadataIPv6
	case "gce":
		ipv6 = "fd20:ce::254"
	case "scaleway":
		ipv6 = "fd00:42::42"
	}
	return ipv4, ipv6
}

// effectiveMode is the mode with the default filled in. Defaulting belongs to CompleteCluster (issue
// #11); until it fills the mode, an empty one means Block on AWS and Allow elsewhere, as documented.
func effectiveMode(spec *kops.ClusterSpec, ig *kops.InstanceGroup) string {
	if p := spec.PodMetadataAccess; p != nil && p.Mode != "" {
		if ig == nil {
			return p.Mode
		}
		return spec.PodMetadataFor(ig).Mode
	}
	if spec.CloudProvider == "aws" {
		return kops.PodMetadataAccessBlock
	}
	return kops.PodMetadataAccessAllow
}

func family(name, cmd, imds string, bits int, routeFlag, nodeVar, nodeEnv, when, mode string, port int32, match string) Family {
	f := Family{Name: name, Cmd: cmd, When: when, Mode: mode, IMDS: imds, RouteFlag: routeFlag, NodeIPVar: nodeVar, NodeIPEnv: nodeEnv}
	dst := fmt.Sprintf("-d %s/%d", imds, bits)
	proxy := fmt.Sprintf("${%s}:%d", nodeVar, port)
	if cmd == "ip6tables" {
		proxy = fmt.Sprintf("[${%s}]:%d", nodeVar, port)
	}
	if when == CleanupOnly {
		mode = kops.PodMetadataAccessAllow
	}
	for _, def := range chainDefs {
		c := Chain{chainDef: def}
		if !def.Retired {
			c.Rules = chainRules(def.Name, mode, match, dst, proxy)
		}
		c.Present = len(c.Rules) > 0
		if c.Present && def.Name == ChainNAT {
			f.NeedsNodeIP = true
		}
		f.Chains = append(f.Chains, c)
	}
	return f
}

// chainRules are the rules of one chain for one pod match.
func chainRules(chain, mode, match, dst, proxy string) []string {
	prefix := "-A " + chain + " " + match + " " + dst
	http := " -p tcp -m tcp --dport 80"
	switch {
	case mode == kops.PodMetadataAccessAllow:
		return nil
	case chain == ChainRewritten:
		return rewrittenRules(dst)
	case chain == ChainNAT && mode == kops.PodMetadataAccessForward:
		return []string{prefix + http + " -j DNAT --to-destination " + proxy}
	case chain == ChainNAT:
		return nil
	case chain == ChainRaw && mode == kops.PodMetadataAccessForward:
		return []string{prefix + http + " -j RETURN", prefix + " -j DROP"}
	default:
		return []string{prefix + " -j DROP"}
	}
}

// rewrittenRules drop, in POSTROUTING, packets for instance metadata that conntrack did not first
// see addressed there (see ChainRewritten). They match no interface: the node's own requests are
// told apart by their conntrack entry instead, so hostInterface does not narrow them.
func rewrittenRules(dst string) []string {
	prefix := "-A " + ChainRewritten + " " + dst + " -m conntrack"
	imds := strings.TrimPrefix(dst, "-d ")
	return []string{
		prefix + " --ctstate INVALID,UNTRACKED -j DROP",
		prefix + " ! --ctorigdst " + imds + " -j DROP",
	}
}
