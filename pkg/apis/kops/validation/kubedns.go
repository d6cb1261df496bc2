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
	"sort"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/api/validate/content"
	apivalidation "k8s.io/apimachinery/pkg/api/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"k8s.io/kops/pkg/apis/kops"
)

// supportedDNSProviders excludes KubeDNS, a valid kops value: accepting it would leave the cluster
// without DNS.
var supportedDNSProviders = []string{kops.DNSProviderCoreDNS}

var (
	supportedTolerationOperators = []string{string(corev1.TolerationOpExists), string(corev1.TolerationOpEqual)}
	supportedTaintEffects        = []string{
		string(corev1.TaintEffectNoSchedule),
		string(corev1.TaintEffectPreferNoSchedule),
		string(corev1.TaintEffectNoExecute),
	}
)

// validateKubeDNS accepts empty fields: CompleteCluster fills them in.
func validateKubeDNS(spec *kops.ClusterSpec, specPath *field.Path) field.ErrorList {
	d, path := spec.KubeDNS, specPath.Child("kubeDNS")
	if d == nil {
		return nil
	}
	var errs field.ErrorList

	if d.Provider != "" && d.Provider != kops.DNSProviderCoreDNS {
		errs = append(errs, field.NotSupported(path.Child("provider"), d.Provider, supportedDNSProviders))
	}
	if d.ServerIP != "" {
		errs = append(errs, validateServerIP(d.ServerIP, spec.ServiceClusterIPRange,
			path.Child("serverIP"), specPath.Child("serviceClusterIPRange"))...)
	}
	before := len(errs)
	if d.Domain != "" {
		for _, msg := range DNSNameProblems(d.Domain) {
			errs = append(errs, field.Invalid(path.Child("domain"), d.Domain, msg))
		}
	}
	for i, ns := range d.UpstreamNameservers {
		if _, err := netip.ParseAddr(ns); err != nil {
			errs = append(errs, field.Invalid(path.Child("upstreamNameservers").Index(i), ns, "must be an IP address"))
		}
	}
	errs = append(errs, validateStubDomains(d.StubDomains, path.Child("stubDomains"))...)
	errs = append(errs, validateCorefile(d, path, len(errs) == before)...)
	errs = append(errs, validateResources(d, path)...)
	for i, t := range d.Tolerations {
		errs = append(errs, validateToleration(t, path.Child("tolerations").Index(i))...)
	}
	errs = append(errs, apivalidation.ValidateAnnotations(d.PodAnnotations, path.Child("podAnnotations"))...)
	errs = append(errs, validateOperatorMode(d.OperatorMode, path.Child("operatorMode"))...)
	if d.CoreDNSImage != "" {
		if msg := imageProblem(d.CoreDNSImage); msg != "" {
			errs = append(errs, field.Invalid(path.Child("coreDNSImage"), d.CoreDNSImage, msg))
		}
	}
	return errs
}

func validateServerIP(ip, serviceClusterIPRange string, path, rangePath *field.Path) field.ErrorList {
	addr, err := netip.ParseAddr(ip)
	if err != nil {
		return field.ErrorList{field.Invalid(path, ip, "must be an IP address")}
	}
	service, err := netip.ParsePrefix(serviceClusterIPRange)
	if err != nil {
		return nil
	}
	switch {
	case addr.Is4() != service.Addr().Is4():
		return field.ErrorList{field.Invalid(path, ip,
			fmt.Sprintf("must be the same IP family as %s %q", rangePath, serviceClusterIPRange))}
	case !service.Contains(addr):
		return field.ErrorList{field.Invalid(path, ip,
			fmt.Sprintf("must lie inside %s %q", rangePath, serviceClusterIPRange))}
	// The API server never allocates a range's network address, nor an IPv4 broadcast address.
	case addr == service.Masked().Addr():
		return field.ErrorList{field.Invalid(path, ip,
			fmt.Sprintf("is the network address of %s %q, which no Service can have", rangePath, serviceClusterIPRange))}
	case addr.Is4() && addr == lastAddr(service):
		return field.ErrorList{field.Invalid(path, ip,
			fmt.Sprintf("is the broadcast address of %s %q, which no Service can have", rangePath, serviceClusterIPRange))}
	}
	return nil
}

func lastAddr(p netip.Prefix) netip.Addr {
	b := p.Masked().Addr().AsSlice()
	for i := p.Bits(); i < len(b)*8; i++ {
		b[i/8] |= 0x80 >> (i % 8)
	}
	a, _ := netip.AddrFromSlice(b)
	return a
}

func validateStubDomains(stubs map[string][]string, path *field.Path) field.ErrorList {
	var errs field.ErrorList
	domains := make([]string, 0, len(stubs))
	for k := range stubs {
		domains = append(domains, k)
	}
	sort.Strings(domains)
	for _, domain := range domains {
		p := path.Key(domain)
		for _, msg := range DNSNameProblems(strings.ToLower(strings.TrimSuffix(domain, "."))) {
			errs = append(errs, field.Invalid(p, domain, msg))
		}
		for i, server := range stubs[domain] {
			if !isIPOrIPPort(server) {
				errs = append(errs, field.Invalid(p.Index(i), server, "must be an IP address or IP:port ([IPv6]:port)"))
			}
		}
	}
	return errs
}

func isIPOrIPPort(s string) bool {
	if _, err := netip.ParseAddr(s); err == nil {
		return true
	}
	ap, err := netip.ParseAddrPort(s)
	return err == nil && ap.Port() != 0
}

// validateResources: otherwise the API server rejects the DNS Deployment long after validation.
func validateResources(d *kops.KubeDNSConfig, path *field.Path) field.ErrorList {
	var errs field.ErrorList
	for _, q := range []struct {
		name  string
		value *resource.Quantity
	}{{"cpuRequest", d.CPURequest}, {"memoryRequest", d.MemoryRequest}, {"memoryLimit", d.MemoryLimit}} {
		if q.value != nil && q.value.Sign() < 0 {
			errs = append(errs, field.Invalid(path.Child(q.name), q.value.String(), "must not be negative"))
		}
	}
	if d.MemoryRequest != nil && d.MemoryLimit != nil && d.MemoryLimit.Cmp(*d.MemoryRequest) < 0 {
		errs = append(errs, field.Invalid(path.Child("memoryLimit"), d.MemoryLimit.String(),
			fmt.Sprintf("must be greater than or equal to %s %s", path.Child("memoryRequest"), d.MemoryRequest)))
	}
	return errs
}

func validateToleration(t corev1.Toleration, path *field.Path) field.ErrorList {
	var errs field.ErrorList
	if t.Key != "" {
		for _, msg := range content.IsLabelKey(t.Key) {
			errs = append(errs, field.Invalid(path.Child("key"), t.Key, msg))
		}
	}
	switch t.Operator {
	case corev1.TolerationOpExists:
		if t.Value != "" {
			errs = append(errs, field.Invalid(path.Child("value"), t.Value, "must be empty when operator is Exists"))
		}
	case corev1.TolerationOpEqual, "":
		if t.Key == "" {
			errs = append(errs, field.Invalid(path.Child("operator"), t.Operator,
				"must be Exists when key is empty (a toleration of every taint)"))
		}
	default:
		errs = append(errs, field.NotSupported(path.Child("operator"), t.Operator, supportedTolerationOperators))
	}
	if t.Effect != "" && !slices.Contains(supportedTaintEffects, string(t.Effect)) {
		errs = append(errs, field.NotSupported(path.Child("effect"), t.Effect, supportedTaintEffects))
	}
	if t.TolerationSeconds != nil && t.Effect != corev1.TaintEffectNoExecute {
		errs = append(errs, field.Invalid(path.Child("tolerationSeconds"), *t.TolerationSeconds,
			"may only be set when effect is NoExecute"))
	}
	return errs
}

var supportedOperatorModes = []string{kops.OperatorModeServerSide, kops.OperatorModeClientSide}

// validateOperatorMode accepts "" and the two modes, suggesting the nearest for a near miss.
func validateOperatorMode(mode string, path *field.Path) field.ErrorList {
	if mode == "" || slices.Contains(supportedOperatorModes, mode) {
		return nil
	}
	fold := func(s string) string {
		return strings.ToLower(strings.NewReplacer("-", "", "_", "", " ", "").Replace(s))
	}
	for _, m := range supportedOperatorModes {
		if fold(mode) == fold(m) {
			return field.ErrorList{field.Invalid(path, mode, fmt.Sprintf("unsupported value; did you mean %q?", m))}
		}
	}
	return field.ErrorList{field.NotSupported(path, mode, supportedOperatorModes)}
}
