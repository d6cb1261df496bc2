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
	"net/netip"
	"regexp"
	"slices"
	"strings"
	"sync"

	"k8s.io/kops/pkg/apis/kops"
)

// The chains the node script owns, each filled in one iptables-restore transaction and jumped to
// from the top of its parents, so removing a mode is flushing and deleting them.
const (
	ChainNAT = "KOPS-METADATA-NAT"
	// ChainRaw (raw PREROUTING) drops pods' metadata traffic before conntrack and filter, so a CNI's
	// ACCEPT atop FORWARD (Calico's) cannot undo it.
	ChainRaw = "KOPS-METADATA-RAW"
	// ChainBackstop (mangle FORWARD, INPUT) drops what is redirected to metadata after PREROUTING
	// (kube-proxy NAT, source routes); mangle runs before filter, so a CNI's ACCEPT cannot skip it.
	ChainBackstop = "KOPS-METADATA"
	// ChainRewritten (mangle POSTROUTING) drops packets that get the metadata address only after
	// FORWARD (IPv4 loose source routing). The node's own packets are told by their conntrack entry;
	// untracked ones leaving for metadata are dropped.
	ChainRewritten = "KOPS-METADATA-POST"
)

// everyInterfaceButLoopback: the node's own processes send through OUTPUT and reach a local metadata
// address via lo; everything else entering is a pod or another machine, so no CNI name can be missed.
const everyInterfaceButLoopback = "! -i lo"

// chainDef order is installation order: the DNAT exists before raw lets TCP/80 through, so switching
// to Forward never opens a window.
type chainDef struct {
	Table   string
	Name    string
	Parents []string
	// Retired chains are only removed, so rerunning on a machine an earlier version set up converges.
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

// Chain is an owned chain's rules; Present false means the script removes it and its jumps.
type Chain struct {
	chainDef
	Present bool
	Rules   []string
}

const (
	Always = "always"
	// IfKernelHasIt: a kernel with IPv6 lets pods send IPv6 even if the cluster does not use it.
	IfKernelHasIt = "if the kernel has it"
	// CleanupOnly removes what an earlier mode left, where the command exists.
	CleanupOnly = "cleanup only"
)

type Family struct {
	Name string
	Cmd  string
	When string
	// Mode is Block where Forward's proxy cannot be reached over this family (IPv4-only proxy).
	Mode        string
	IMDS        string
	RouteFlag   string
	NodeIPVar   string
	NodeIPEnv   string
	KernelFile  string
	Summary     string
	NeedsNodeIP bool
	Chains      []Chain
	// NAT64 is the metadata address behind the well-known NAT64 prefix, dropped with the mode's
	// other rules where this family is held; empty for IPv4 and where nothing is held.
	NAT64 string
}

// Table is one table's owned chains, in installation order: a family's rules are one
// iptables-restore input with a section per table.
type Table struct {
	Name   string
	Chains []Chain
}

// Tables groups the family's chains by table, tables in the order their first chain is installed.
func (f Family) Tables() []Table {
	var out []Table
	for _, c := range f.Chains {
		if n := len(out); n > 0 && out[n-1].Name == c.Table {
			out[n-1].Chains = append(out[n-1].Chains, c)
			continue
		}
		out = append(out, Table{Name: c.Table, Chains: []Chain{c}})
	}
	return out
}

// StateCommands print, among other lines, every line of the family's held chains and the jumps to
// them: a table's iptables-save, except nat, which kube-proxy can fill with thousands of lines and
// is read by chain.
func (f Family) StateCommands() []string {
	var out []string
	for _, t := range f.Tables() {
		var chains []string
		for _, c := range t.Chains {
			if !c.Present {
				continue
			}
			for _, p := range c.Parents {
				if !slices.Contains(chains, p) {
					chains = append(chains, p)
				}
			}
			chains = append(chains, c.Name)
		}
		switch {
		case len(chains) == 0:
		case t.Name == "nat":
			for _, c := range chains {
				out = append(out, fmt.Sprintf("%s -w -t %s -S %s", f.Cmd, t.Name, c))
			}
		default:
			out = append(out, fmt.Sprintf("%s-save -t %s", f.Cmd, t.Name))
		}
	}
	return out
}

// StateLines is how many lines naming an owned chain StateCommands print when every rule is in
// place: per held chain its declaration, its rules and one jump per parent.
func (f Family) StateLines() int {
	n := 0
	for _, c := range f.Chains {
		if c.Present {
			n += 1 + len(c.Rules) + len(c.Parents)
		}
	}
	return n
}

// Held: the family has rules to keep, not only leftovers of an earlier mode to remove.
func (f Family) Held() bool {
	for _, c := range f.Chains {
		if c.Present {
			return true
		}
	}
	return false
}

type Rules struct {
	Mode string
	// HostInterface narrows the rules to one interface pattern; empty, they hold every interface but lo.
	HostInterface string
	Port          int32
	Families      []Family
}

// interfaceName is iptables' -i syntax; it also keeps hostInterface from being shell or iptables syntax.
var interfaceName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9_.-]{1,15}\+?$`) })

// RulesFor derives a group's node rules from a completed cluster (nil ig: the cluster's own mode).
// spec.networking plays no part: the rules hold every interface but lo unless hostInterface narrows them.
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
		if !interfaceName().MatchString(name) || kops.InterfacePatternMatches(name, kops.LoopbackInterface) {
			return nil, fmt.Errorf("spec.podMetadataAccess.hostInterface: Invalid value: %q: must be an interface name of at most 15 letters, digits or _.-, optionally ending in + (a prefix), and must not match lo", name)
		}
		// The script checks the variable once more before any rule uses it.
		match = "-i " + hostInterfaceVar
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
			imds6 = awsMetadataIPv6
		}
		v6 = family("IPv6", "ip6tables", imds6, 128, "-6", "node_ip6", "KOPS_METADATA_NODE_IPV6", CleanupOnly, kops.PodMetadataAccessAllow, r.Port, match)
		v6.Summary = "nothing to hold; only what an earlier mode left is removed."
	case spec.IsIPv6Only():
		v6 = family("IPv6", "ip6tables", imds6, 128, "-6", "node_ip6", "KOPS_METADATA_NODE_IPV6", Always, r.Mode, r.Port, match)
		v6.Summary = "mode " + r.Mode + "."
	default:
		// A pod can send IPv6 wherever the kernel has it; an IPv4 cluster's proxy listens on IPv4 only.
		v6 = family("IPv6", "ip6tables", imds6, 128, "-6", "node_ip6", "KOPS_METADATA_NODE_IPV6", IfKernelHasIt, kops.PodMetadataAccessBlock, r.Port, match)
		v6.KernelFile = ipv6KernelFile
		v6.Summary = "not used by this cluster, but held wherever the kernel has it: mode Block."
		if r.Mode == kops.PodMetadataAccessForward {
			v6.Summary = "not used by this cluster, but held wherever the kernel has it: mode Block, since the proxy listens on IPv4."
		}
	}
	if v6.Held() {
		nat64, err := nat64Address(imds4)
		if err != nil {
			return nil, err
		}
		v6.addDrops(nat64, 128, match)
	}
	r.Families = []Family{v4, v6}
	return r, nil
}

// hostInterfaceVar is the script's variable holding spec.podMetadataAccess.hostInterface.
const hostInterfaceVar = "${host_interface}"

// nat64WellKnown is RFC 6052's well-known prefix, the one AWS's NAT64 (DNS64 subnets) uses. The
// local-use 64:ff9b:1::/48 (RFC 8215) is left out: its operator picks where the IPv4 address sits
// (/48 to /96), so there is no one address to drop, and kops configures no translator using it.
var nat64WellKnown = netip.MustParsePrefix("64:ff9b::/96")

// nat64Address is ipv4 behind the well-known NAT64 prefix: where a translator serves it (a VPC's
// NAT64, one on the node), it is instance metadata over IPv6.
func nat64Address(ipv4 string) (string, error) {
	a, err := netip.ParseAddr(ipv4)
	if err != nil || !a.Is4() {
		return "", fmt.Errorf("the metadata address %q is not an IPv4 address", ipv4)
	}
	b := nat64WellKnown.Addr().As16()
	v4 := a.As4()
	copy(b[12:], v4[:])
	return netip.AddrFrom16(b).String(), nil
}

// addDrops adds, to every chain the family holds but the NAT one, rules dropping pods' traffic to
// addr whatever the mode: no proxy listens for it.
func (f *Family) addDrops(addr string, bits int, match string) {
	f.NAT64 = addr
	dst := fmt.Sprintf("-d %s/%d", addr, bits)
	for i := range f.Chains {
		c := &f.Chains[i]
		if !c.Present || c.Name == ChainNAT {
			continue
		}
		c.Rules = append(c.Rules, chainRules(c.Name, kops.PodMetadataAccessBlock, match, dst, "")...)
	}
}

// ipv6KernelFile exists exactly when the kernel has IPv6; without it nothing can send IPv6.
const ipv6KernelFile = "/proc/net/if_inet6"

const (
	defaultMetadataIPv4 = "169.254.169.254"
	awsMetadataIPv6     = "fd00:ec2::254"
)

// metadataAddresses returns the IPv4 and, where served, IPv6 metadata addresses. OpenStack's IPv6 one
// is link-local, which no node routes (see docs/metadata-access-node.md).
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

// effectiveMode: until CompleteCluster fills the mode (issue #11), empty means Block on AWS, Allow elsewhere.
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

// rewrittenRules match no interface: the node's own requests are told by conntrack, so hostInterface
// does not narrow them.
func rewrittenRules(dst string) []string {
	prefix := "-A " + ChainRewritten + " " + dst + " -m conntrack"
	imds := strings.TrimPrefix(dst, "-d ")
	return []string{
		prefix + " --ctstate INVALID,UNTRACKED -j DROP",
		prefix + " ! --ctorigdst " + imds + " -j DROP",
	}
}
