// Package coredns holds what every CoreDNS deployment of a cluster shares, whichever way it is
// installed (the built-in addon or the CoreDNS operator), so that both serve the same zones.
package coredns

import (
	"sort"
	"strings"

	"k8s.io/kops/pkg/apis/kops"
)

// resolvConf is forwarded to when no upstream nameservers are set: the node's resolvers, which the
// pod inherits through dnsPolicy Default.
const resolvConf = "/etc/resolv.conf"

// Corefile returns the CoreDNS configuration for a cluster's spec.kubeDNS. It is the single
// source of the Corefile: the addon manifest and the operator's configuration both embed it, so
// switching between them cannot change DNS behaviour.
//
// externalCoreFile, when set, is returned verbatim. Otherwise the main server block serves the
// cluster domain and the reverse zones and forwards everything else to upstreamNameservers (or the
// node's resolv.conf); each stub domain gets its own server block, ordered by domain so the output
// is deterministic. Stub domains without servers are skipped: a "forward ." with no target would
// keep CoreDNS from starting, and validation reports them. dns is expected to be completed; a nil
// dns or empty domain falls back to kops's defaults.
func Corefile(dns *kops.KubeDNSConfig) string {
	if dns == nil {
		dns = &kops.KubeDNSConfig{}
	}
	if dns.ExternalCoreFile != "" {
		return dns.ExternalCoreFile
	}
	domain := dns.Domain
	if domain == "" {
		domain = kops.DefaultDNSDomain
	}
	upstream := nonEmpty(dns.UpstreamNameservers)
	if len(upstream) == 0 {
		upstream = []string{resolvConf}
	}

	var b corefileWriter
	b.open(".:53")
	b.line("errors")
	b.open("health")
	b.line("lameduck 5s")
	b.close()
	b.line("ready")
	b.open("kubernetes " + domain + " in-addr.arpa ip6.arpa")
	b.line("pods insecure")
	b.line("fallthrough in-addr.arpa ip6.arpa")
	b.line("ttl 30")
	b.close()
	b.line("prometheus :9153")
	b.open("forward . " + strings.Join(upstream, " "))
	b.line("max_concurrent 1000")
	b.close()
	b.line("cache 30")
	b.line("loop")
	b.line("reload")
	b.line("loadbalance")
	b.close()

	stubs := make([]string, 0, len(dns.StubDomains))
	for d := range dns.StubDomains {
		stubs = append(stubs, d)
	}
	sort.Strings(stubs)
	for _, d := range stubs {
		servers := nonEmpty(dns.StubDomains[d])
		if len(servers) == 0 {
			continue
		}
		b.open(d + ":53")
		b.line("errors")
		b.line("cache 30")
		b.line("forward . " + strings.Join(servers, " "))
		b.close()
	}
	return b.String()
}

// nonEmpty drops blank entries, which would otherwise turn into stray spaces in a directive.
func nonEmpty(in []string) []string {
	var out []string
	for _, s := range in {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// corefileWriter writes nested blocks with four spaces per level, CoreDNS's documented style.
type corefileWriter struct {
	strings.Builder
	depth int
}

func (w *corefileWriter) line(s string) {
	w.WriteString(strings.Repeat("    ", w.depth))
	w.WriteString(s)
	w.WriteByte('\n')
}

func (w *corefileWriter) open(s string) {
	w.line(s + " {")
	w.depth++
}

func (w *corefileWriter) close() {
	w.depth--
	w.line("}")
}
