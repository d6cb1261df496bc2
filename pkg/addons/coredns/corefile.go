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

package coredns

import (
	"sort"
	"strings"

	"k8s.io/kops/pkg/apis/kops"
)

// resolvConf is forwarded to without upstream nameservers: the node's, inherited via dnsPolicy Default.
const resolvConf = "/etc/resolv.conf"

// Corefile returns the Corefile for spec.kubeDNS, the one every mode embeds so that switching
// cannot change DNS behaviour. externalCoreFile is returned verbatim; otherwise the output is
// deterministic (stub domains sorted). Stub domains without servers are skipped, since an empty
// "forward ." keeps CoreDNS from starting (validation reports them). A nil dns or empty domain
// falls back to kops's defaults.
func Corefile(dns *kops.KubeDNSConfig) string {
	text, _ := CorefileSources(dns)
	return text
}

// Source names the spec.kubeDNS field a Corefile line comes from, so that a problem in the
// rendered text is reported on the field the user wrote.
type Source struct {
	// Field is "externalCoreFile", "domain", "upstreamNameservers" or "stubDomains"; empty for
	// kops's own text.
	Field string
	// Key is the stub domain, for "stubDomains".
	Key string
}

// CorefileSources returns Corefile's text and, per line, the field that wrote it.
func CorefileSources(dns *kops.KubeDNSConfig) (string, []Source) {
	if dns == nil {
		dns = &kops.KubeDNSConfig{}
	}
	var b corefileWriter
	if dns.ExternalCoreFile != "" {
		b.from(Source{Field: "externalCoreFile"})
		b.raw(dns.ExternalCoreFile)
		return b.String(), b.sources
	}
	domain := dns.Domain
	if domain == "" {
		domain = kops.DefaultDNSDomain
	}
	upstream := nonEmpty(dns.UpstreamNameservers)
	upstreamFrom := Source{Field: "upstreamNameservers"}
	if len(upstream) == 0 {
		upstream, upstreamFrom = []string{resolvConf}, Source{}
	}

	b.open(".:53")
	b.line("errors")
	b.open("health")
	b.line("lameduck 5s")
	b.close()
	b.line("ready")
	b.from(Source{Field: "domain"})
	b.open("kubernetes " + domain + " in-addr.arpa ip6.arpa")
	b.from(Source{})
	b.line("pods insecure")
	b.line("fallthrough in-addr.arpa ip6.arpa")
	b.line("ttl 30")
	b.close()
	b.line("prometheus :9153")
	b.from(upstreamFrom)
	b.open("forward . " + strings.Join(upstream, " "))
	b.from(Source{})
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
		b.from(Source{Field: "stubDomains", Key: d})
		b.open(d + ":53")
		b.line("errors")
		b.line("cache 30")
		b.line("forward . " + strings.Join(servers, " "))
		b.close()
	}
	return b.String(), b.sources
}

// nonEmpty drops blank entries, which would become stray spaces in a directive.
func nonEmpty(in []string) []string {
	var out []string
	for _, s := range in {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// corefileWriter indents four spaces per level (CoreDNS's documented style) and notes each line's Source.
type corefileWriter struct {
	strings.Builder
	depth   int
	current Source
	sources []Source
}

func (w *corefileWriter) from(s Source) { w.current = s }

func (w *corefileWriter) raw(text string) {
	w.WriteString(text)
	w.note(text)
}

func (w *corefileWriter) line(s string) {
	text := strings.Repeat("    ", w.depth) + s + "\n"
	w.WriteString(text)
	w.note(text)
}

// note records the current source for every line text starts or continues.
func (w *corefileWriter) note(text string) {
	lines := strings.Count(text, "\n")
	if !strings.HasSuffix(text, "\n") {
		lines++
	}
	for range lines {
		w.sources = append(w.sources, w.current)
	}
}

func (w *corefileWriter) open(s string) {
	w.line(s + " {")
	w.depth++
}

func (w *corefileWriter) close() {
	w.depth--
	w.line("}")
}
