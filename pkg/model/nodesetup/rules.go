package nodesetup

import (
	"fmt"
	"regexp"
	"strings"

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
	// ChainFilter (filter FORWARD and INPUT) is the backstop: whatever still addresses instance
	// metadata after NAT, routed off the node (FORWARD) or delivered to a local address (INPUT).
	ChainFilter = "KOPS-METADATA"
)

// loopbackMatch is the pod match when the CNI's interface is unknown: every packet that did not
// come from the node itself. The node's own traffic to instance metadata never enters PREROUTING
// or FORWARD, and reaches a local address only through lo.
const loopbackMatch = "! -i lo"

// chainDef places an owned chain. The order of chainDefs is the order of installation: the DNAT
// exists before the raw chain lets TCP/80 through, so a switch to Forward never opens a window.
type chainDef struct {
	Table   string
	Name    string
	Parents []string
}

var chainDefs = []chainDef{
	{Table: "nat", Name: ChainNAT, Parents: []string{"PREROUTING"}},
	{Table: "raw", Name: ChainRaw, Parents: []string{"PREROUTING"}},
	{Table: "filter", Name: ChainFilter, Parents: []string{"FORWARD", "INPUT"}},
}

// Chain is one owned chain of a family with the rules the mode wants in it; Present false means
// the script removes it (and the jumps to it) if an earlier mode left it.
type Chain struct {
	chainDef
	Present bool
	Rules   []string
}

// Family is what the script does with one of iptables or ip6tables.
type Family struct {
	Name string
	// Cmd is iptables or ip6tables; Cmd-restore fills the chains.
	Cmd string
	// Required: the cluster uses this family, so a missing command is an error. Otherwise the
	// script only cleans up after an earlier mode, if the command exists.
	Required bool
	// IMDS is the instance metadata address of this family.
	IMDS string
	// RouteFlag is ip's family flag (-4, -6), to find the node address from the route to IMDS.
	RouteFlag string
	// NodeIPVar is the shell variable holding the node address; NodeIPEnv overrides discovery.
	NodeIPVar string
	NodeIPEnv string
	// NeedsNodeIP: a rule sends traffic to the node address (Forward).
	NeedsNodeIP bool
	Chains      []Chain
}

// Rules is everything the node script is rendered from.
type Rules struct {
	Mode string
	// Interfaces are the pod interface patterns, empty when the CNI is unknown.
	Interfaces []string
	// Port is the credentials proxy's port (Forward).
	Port     int32
	Families []Family
}

// interfaceName is what iptables accepts after -i: up to 15 characters, a trailing + as wildcard.
// It is also what keeps a user's hostInterface from being shell or iptables syntax in the script.
var interfaceName = regexp.MustCompile(`^[A-Za-z0-9_.-]{1,15}\+?$`)

// RulesFor derives the node rules from a completed cluster.
func RulesFor(cluster *kops.Cluster) (*Rules, error) {
	spec := &cluster.Spec
	r := &Rules{Mode: effectiveMode(spec), Port: kops.DefaultPodMetadataForwardPort}
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
	interfaces, known := spec.PodInterfaces()
	matches := []string{loopbackMatch}
	if known {
		matches = nil
		for _, name := range interfaces {
			if !interfaceName.MatchString(name) || strings.TrimSuffix(name, "+") == "lo" {
				return nil, fmt.Errorf("spec.podMetadataAccess.hostInterface: Invalid value: %q: must be an interface name of at most 15 letters, digits or _.-, optionally ending in + (a prefix), and not lo", name)
			}
			matches = append(matches, "-i "+name)
		}
		r.Interfaces = interfaces
	}
	if r.Mode == kops.PodMetadataAccessForward && !known {
		return nil, fmt.Errorf("spec.podMetadataAccess.hostInterface: Required value: the pods' interface of this CNI is unknown; name it for Forward")
	}
	imds4, imds6 := metadataAddresses(spec.CloudProvider)
	ipv6 := spec.IsIPv6Only() && imds6 != ""
	if imds6 == "" {
		imds6 = awsMetadataIPv6 // only to remove what an earlier run may have left
	}
	r.Families = []Family{
		family("IPv4", "iptables", imds4, 32, "-4", "node_ip4", "KOPS_METADATA_NODE_IP", true, r, matches),
		family("IPv6", "ip6tables", imds6, 128, "-6", "node_ip6", "KOPS_METADATA_NODE_IPV6", ipv6, r, matches),
	}
	return r, nil
}

// The instance metadata addresses the rules protect.
const (
	defaultMetadataIPv4 = "169.254.169.254"
	awsMetadataIPv6     = "fd00:ec2::254"
)

// metadataAddresses returns a cloud's instance metadata addresses: IPv4, and IPv6 where the cloud
// serves metadata over IPv6 (AWS only). The IPv4 list matches kops.InstanceMetadataAddress of the
// cloud-side work (issue #11), which this should call once both are merged.
func metadataAddresses(cloud string) (ipv4, ipv6 string) {
	switch cloud {
	case "aws":
		return defaultMetadataIPv4, awsMetadataIPv6
	case "scaleway":
		return "169.254.42.42", ""
	}
	return defaultMetadataIPv4, ""
}

// effectiveMode is the mode with the default filled in. Defaulting belongs to CompleteCluster (issue
// #11); until it fills the mode, an empty one means Block on AWS and Allow elsewhere, as documented.
func effectiveMode(spec *kops.ClusterSpec) string {
	if p := spec.PodMetadataAccess; p != nil && p.Mode != "" {
		return p.Mode
	}
	if spec.CloudProvider == "aws" {
		return kops.PodMetadataAccessBlock
	}
	return kops.PodMetadataAccessAllow
}

func family(name, cmd, imds string, bits int, routeFlag, nodeVar, nodeEnv string, used bool, r *Rules, matches []string) Family {
	f := Family{Name: name, Cmd: cmd, Required: used, IMDS: imds, RouteFlag: routeFlag, NodeIPVar: nodeVar, NodeIPEnv: nodeEnv}
	dst := fmt.Sprintf("-d %s/%d", imds, bits)
	proxy := fmt.Sprintf("${%s}:%d", nodeVar, r.Port)
	if cmd == "ip6tables" {
		proxy = fmt.Sprintf("[${%s}]:%d", nodeVar, r.Port)
	}
	mode := r.Mode
	if !used {
		mode = kops.PodMetadataAccessAllow
	}
	for _, def := range chainDefs {
		c := Chain{chainDef: def}
		for _, m := range matches {
			c.Rules = append(c.Rules, chainRules(def.Name, mode, m, dst, proxy)...)
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
