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

// validateNetwork checks the cluster's address ranges and subnets, and how they nest.
func validateNetwork(spec *kops.ClusterSpec, specPath *field.Path) field.ErrorList {
	var errs field.ErrorList

	networkPath := specPath.Child("networkCIDR")
	network, networkOK := optionalCIDR(spec.NetworkCIDR, networkPath, &errs)

	nonMasqPath := specPath.Child("nonMasqueradeCIDR")
	nonMasq, nonMasqOK := requiredCIDR(spec.NonMasqueradeCIDR, nonMasqPath, &errs)

	servicePath := specPath.Child("serviceClusterIPRange")
	var service netip.Prefix
	var serviceOK bool
	if spec.ServiceClusterIPRange == "" && nonMasqOK {
		// CompleteCluster leaves it empty when nonMasqueradeCIDR is too small to derive it from.
		errs = append(errs, field.Required(servicePath, fmt.Sprintf(
			"could not be derived from %s %q; set it explicitly", nonMasqPath, spec.NonMasqueradeCIDR)))
	} else {
		service, serviceOK = optionalCIDR(spec.ServiceClusterIPRange, servicePath, &errs)
	}

	if nonMasqOK && serviceOK {
		switch {
		case nonMasq.Addr().Is4() != service.Addr().Is4():
			errs = append(errs, field.Invalid(servicePath, spec.ServiceClusterIPRange,
				fmt.Sprintf("must be the same IP family as %s %q", nonMasqPath, spec.NonMasqueradeCIDR)))
		case nonMasq.Addr().Is4() && !contains(nonMasq, service):
			errs = append(errs, field.Invalid(servicePath, spec.ServiceClusterIPRange,
				fmt.Sprintf("must lie inside %s %q", nonMasqPath, spec.NonMasqueradeCIDR)))
		}
	}
	if networkOK && nonMasqOK && network.Addr().Is4() && nonMasq.Addr().Is4() && network.Overlaps(nonMasq) {
		errs = append(errs, field.Invalid(networkPath, spec.NetworkCIDR, fmt.Sprintf(
			"must not overlap %s %q: pod and service addresses would collide with machine addresses",
			nonMasqPath, spec.NonMasqueradeCIDR)))
	}
	return append(errs, validateSubnets(spec.Subnets, network, networkPath, specPath.Child("subnets"))...)
}

// validateSubnets checks each subnet and that their CIDRs lie inside network (unless it is the zero
// Prefix: unset or malformed) without overlapping each other.
func validateSubnets(subnets []kops.ClusterSubnetSpec, network netip.Prefix, networkPath, path *field.Path) field.ErrorList {
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

		if s.Zone == "" {
			errs = append(errs, field.Required(p.Child("zone"), ""))
		}
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
		if network.IsValid() && !contains(network, prefix) {
			errs = append(errs, field.Invalid(cidrPath, s.CIDR,
				fmt.Sprintf("must lie inside %s %q", networkPath, network)))
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

// requiredCIDR is optionalCIDR that also reports an empty value.
func requiredCIDR(value string, path *field.Path, errs *field.ErrorList) (netip.Prefix, bool) {
	if value == "" {
		*errs = append(*errs, field.Required(path, ""))
		return netip.Prefix{}, false
	}
	return optionalCIDR(value, path, errs)
}

// optionalCIDR parses value as a CIDR, appending an error for a malformed one. ok is false when the
// value is empty or malformed, so that checks relating it to other ranges are skipped.
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

// cidrProblem explains what is wrong with a CIDR, or returns "" when it is fine. Bits set beyond
// the prefix length are an error because the range the user meant is ambiguous.
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

// contains says whether inner lies entirely inside outer.
func contains(outer, inner netip.Prefix) bool {
	return outer.Addr().Is4() == inner.Addr().Is4() &&
		outer.Bits() <= inner.Bits() && outer.Contains(inner.Addr())
}
