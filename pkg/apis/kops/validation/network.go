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

package validation

import (
	"fmt"
	"net/netip"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"k8s.io/kops/pkg/apis/kops"
)

var supportedSubnetTypes = []string{
	string(kops.SubnetTypePublic),
	string(kops.SubnetTypePrivate),
	string(kops.SubnetTypeUtility),
	string(kops.SubnetTypeDualStack),
}

func validateNetwork(spec *kops.ClusterSpec, specPath *field.Path) field.ErrorList {
	var errs field.ErrorList

	networkPath := specPath.Child("networkCIDR")
	network, networkOK := optionalCIDR(spec.NetworkCIDR, networkPath, &errs)

	nonMasqPath := specPath.Child("nonMasqueradeCIDR")
	nonMasq, nonMasqOK := requiredCIDR(spec.NonMasqueradeCIDR, nonMasqPath, &errs)

	servicePath := specPath.Child("serviceClusterIPRange")
	service, serviceOK := optionalCIDR(spec.ServiceClusterIPRange, servicePath, &errs)

	// kops does not require the service range inside nonMasqueradeCIDR (an AWS VPC CNI cluster pairs
	// 172.20.0.0/16 with 100.64.0.0/13); only the family, and no subnet overlapping it.
	if nonMasqOK && serviceOK && nonMasq.Addr().Is4() != service.Addr().Is4() {
		errs = append(errs, field.Invalid(servicePath, spec.ServiceClusterIPRange,
			fmt.Sprintf("must be the same IP family as %s %q", nonMasqPath, spec.NonMasqueradeCIDR)))
	}
	if serviceOK && !spec.PodsUseNetworkCIDR() && !inAny(service, serviceRanges) {
		errs = append(errs, field.Invalid(servicePath, spec.ServiceClusterIPRange, fmt.Sprintf(
			"must lie inside a private range (%s) or the shared range 100.64.0.0/10: Service addresses are "+
				"virtual and would hide the real hosts there from every pod (kops's default is %s, or %s "+
				"for IPv6); only spec.networking.amazonvpc, or spec.networking.cilium with ipam: eni, may use another",
			"10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16, fd00::/8", kops.DefaultServiceClusterIPRange, kops.DefaultIPv6ServiceClusterIPRange)))
	}
	var serviceRange *netip.Prefix
	if serviceOK {
		serviceRange = &service
	}
	if nonMasqOK && nonMasq.Addr().Is6() && nonMasq != ipv6Everything {
		errs = append(errs, field.Forbidden(nonMasqPath, fmt.Sprintf(
			"an IPv6 cluster must have a nonMasqueradeCIDR of %q, not %q", ipv6Everything, spec.NonMasqueradeCIDR)))
	}
	// An IPv6 cluster keeps an IPv4 network in kops, so only IPv4 clusters hold the network to a family.
	ipv4Cluster := nonMasqOK && nonMasq.Addr().Is4()
	if networkOK {
		if msg := wholeSpace(network, "172.20.0.0/16"); msg != "" {
			errs = append(errs, field.Invalid(networkPath, spec.NetworkCIDR, msg))
		}
		if ipv4Cluster && !network.Addr().Is4() {
			errs = append(errs, field.Invalid(networkPath, spec.NetworkCIDR, ipv4Only(nonMasqPath, spec.NonMasqueradeCIDR)))
		}
	}
	// A CNI that gives pods network addresses shares the range by design; any other would misroute.
	if networkOK && nonMasqOK && network.Addr().Is4() && nonMasq.Addr().Is4() && network.Overlaps(nonMasq) &&
		!spec.PodsUseNetworkCIDR() {
		errs = append(errs, field.Invalid(networkPath, spec.NetworkCIDR, fmt.Sprintf(
			"must not overlap %s %q: pod and service addresses would collide with machine addresses "+
				"(only spec.networking.amazonvpc, or spec.networking.cilium with ipam: eni, share the network's range)",
			nonMasqPath, spec.NonMasqueradeCIDR)))
	}

	var networks []netip.Prefix
	if networkOK {
		networks = append(networks, network)
	}
	additionalPath := specPath.Child("additionalNetworkCIDRs")
	for i, cidr := range spec.AdditionalNetworkCIDRs {
		p := additionalPath.Index(i)
		if cidr == "" {
			errs = append(errs, field.Required(p, ""))
			continue
		}
		extra, ok := optionalCIDR(cidr, p, &errs)
		if !ok {
			continue
		}
		if msg := wholeSpace(extra, "10.1.0.0/16"); msg != "" {
			errs = append(errs, field.Invalid(p, cidr, msg))
		}
		switch {
		case networkOK && extra.Addr().Is4() != network.Addr().Is4():
			errs = append(errs, field.Invalid(p, cidr, fmt.Sprintf("must be the same IP family as %s %q", networkPath, spec.NetworkCIDR)))
		case !networkOK && ipv4Cluster && !extra.Addr().Is4():
			errs = append(errs, field.Invalid(p, cidr, ipv4Only(nonMasqPath, spec.NonMasqueradeCIDR)))
		case networkOK:
			networks = append(networks, extra)
		}
	}
	notIPv4 := ""
	if len(networks) == 0 && ipv4Cluster {
		notIPv4 = ipv4Only(nonMasqPath, spec.NonMasqueradeCIDR)
	}
	errs = append(errs, validateSubnets(spec.Subnets, networks, notIPv4, serviceRange, networkPath, servicePath, specPath.Child("subnets"))...)
	return append(errs, validateSubnetPlacement(spec, specPath.Child("subnets"))...)
}

var ipv6Everything = netip.MustParsePrefix("::/0")

// serviceRanges are where a Service range shadows no one: the private ranges (RFC 1918, and the
// locally assigned half of IPv6 unique local addresses, RFC 4193) and the shared range (RFC 6598)
// kops's default lies in.
var serviceRanges = []netip.Prefix{
	netip.MustParsePrefix("10.0.0.0/8"),
	netip.MustParsePrefix("172.16.0.0/12"),
	netip.MustParsePrefix("192.168.0.0/16"),
	netip.MustParsePrefix("100.64.0.0/10"),
	netip.MustParsePrefix("fd00::/8"),
}

func inAny(p netip.Prefix, ranges []netip.Prefix) bool {
	return slices.ContainsFunc(ranges, func(r netip.Prefix) bool { return contains(r, p) })
}

// wholeSpace refuses a /0 machine range, which is never a cloud network or subnet.
func wholeSpace(p netip.Prefix, example string) string {
	if p.Bits() != 0 {
		return ""
	}
	family := "IPv4"
	if p.Addr().Is6() {
		family = "IPv6"
	}
	return fmt.Sprintf("is the whole %s address space, which no network of machines can be: give a range of the cluster's own network (its VPC), e.g. %s", family, example)
}

func ipv4Only(nonMasqPath *field.Path, nonMasq string) string {
	return fmt.Sprintf("must be an IPv4 CIDR: the cluster is IPv4 (%s %q), so its machines need IPv4 addresses; "+
		"an IPv6 cluster has %s %q", nonMasqPath, nonMasq, nonMasqPath, ipv6Everything)
}

// validateSubnets checks each subnet lies inside one of networks (unchecked when empty) without
// overlapping another; a non-IPv4 CIDR is refused with notIPv4 unless it is empty.
func validateSubnets(subnets []kops.ClusterSubnetSpec, networks []netip.Prefix, notIPv4 string, service *netip.Prefix,
	networkPath, servicePath, path *field.Path) field.ErrorList {
	var errs field.ErrorList
	names := map[string]bool{}
	type placed struct {
		prefix netip.Prefix
		path   *field.Path
	}
	var seen []placed

	for i, s := range subnets {
		p := path.Index(i)
		switch {
		case s.Name == "":
			errs = append(errs, field.Required(p.Child("name"), ""))
		case names[s.Name]:
			errs = append(errs, field.Duplicate(p.Child("name"), s.Name))
		}
		names[s.Name] = true

		switch {
		case s.Type == "":
			errs = append(errs, field.Required(p.Child("type"), "one of "+strings.Join(supportedSubnetTypes, ", ")))
		case !slices.Contains(supportedSubnetTypes, string(s.Type)):
			errs = append(errs, field.NotSupported(p.Child("type"), s.Type, supportedSubnetTypes))
		}

		// An empty CIDR is allowed: some clouds allocate subnet ranges themselves.
		cidrPath := p.Child("cidr")
		prefix, ok := optionalCIDR(s.CIDR, cidrPath, &errs)
		if !ok {
			continue
		}
		whole := wholeSpace(prefix, "172.20.32.0/19")
		if whole != "" {
			errs = append(errs, field.Invalid(cidrPath, s.CIDR, whole))
		}
		if notIPv4 != "" && !prefix.Addr().Is4() {
			errs = append(errs, field.Invalid(cidrPath, s.CIDR, notIPv4))
		}
		if len(networks) > 0 && !slices.ContainsFunc(networks, func(n netip.Prefix) bool { return contains(n, prefix) }) {
			where := fmt.Sprintf("%s %q", networkPath, networks[0])
			if len(networks) > 1 {
				where += " or one of spec.additionalNetworkCIDRs"
			}
			errs = append(errs, field.Invalid(cidrPath, s.CIDR, "must lie inside "+where))
		}
		// Machines in the service range would be unreachable behind the Services' virtual IPs.
		if service != nil && whole == "" && service.Overlaps(prefix) {
			errs = append(errs, field.Invalid(cidrPath, s.CIDR, fmt.Sprintf("overlaps %s %q", servicePath, *service)))
		}
		for _, other := range seen {
			if other.prefix.Overlaps(prefix) {
				errs = append(errs, field.Invalid(cidrPath, s.CIDR,
					fmt.Sprintf("overlaps %s %q", other.path, other.prefix)))
			}
		}
		seen = append(seen, placed{prefix, cidrPath})
	}
	return errs
}

func requiredCIDR(value string, path *field.Path, errs *field.ErrorList) (netip.Prefix, bool) {
	if value == "" {
		*errs = append(*errs, field.Required(path, ""))
		return netip.Prefix{}, false
	}
	return optionalCIDR(value, path, errs)
}

// optionalCIDR reports a malformed value; ok is false when empty or malformed.
func optionalCIDR(value string, path *field.Path, errs *field.ErrorList) (netip.Prefix, bool) {
	if value == "" {
		return netip.Prefix{}, false
	}
	if detail := cidrProblem(value); detail != "" {
		*errs = append(*errs, field.Invalid(path, value, detail))
		return netip.Prefix{}, false
	}
	p, _ := netip.ParsePrefix(value)
	return p, true
}

// cidrProblem returns why value is not a CIDR, or "". Bits beyond the prefix are refused as ambiguous.
func cidrProblem(value string) string {
	p, err := netip.ParsePrefix(value)
	if err != nil {
		if a, aerr := netip.ParseAddr(value); aerr == nil {
			return fmt.Sprintf("must be a CIDR (address/prefix length), not a single address: did you mean %q?",
				netip.PrefixFrom(a, a.BitLen()))
		}
		return "must be a CIDR such as 10.0.0.0/16 or fd00::/64"
	}
	if p.Masked() != p {
		return fmt.Sprintf("has bits set beyond the /%d prefix: did you mean %q?", p.Bits(), p.Masked())
	}
	return ""
}

func contains(outer, inner netip.Prefix) bool {
	return outer.Addr().Is4() == inner.Addr().Is4() &&
		outer.Bits() <= inner.Bits() && outer.Contains(inner.Addr())
}
