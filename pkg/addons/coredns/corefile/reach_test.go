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

package corefile

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// block wraps directives in kops's server block.
func block(lines ...string) string {
	return ".:53 {\n    " + strings.Join(lines, "\n    ") + "\n}\n"
}

// at is a problem's place and subject, "line plugin what": what tests compare.
func at(p Problem) string {
	parts := []string{fmt.Sprint(p.Line)}
	for _, s := range []string{p.Plugin, p.What} {
		if s != "" {
			parts = append(parts, s)
		}
	}
	return strings.Join(parts, " ")
}

// reasonFor is the table's reason for a problem's subject: every problem must carry it.
func reasonFor(t *testing.T, p Problem) string {
	t.Helper()
	switch {
	case strings.HasPrefix(p.What, "import "):
		return fileImportReason
	case strings.HasPrefix(p.What, "word "):
		return environReason
	case p.What == "layout":
		return layoutReason
	}
	rule, ok := pluginsByName[p.Plugin]
	if !ok {
		return unknownReason
	}
	switch {
	case p.What == "":
		return rule.refused
	case strings.HasPrefix(p.What, "argument "):
		return rule.args.reason
	}
	for _, o := range rule.options {
		if strings.EqualFold(p.What, fmt.Sprintf("option %q", o.name)) {
			return o.reason
		}
	}
	t.Fatalf("no rule for %+v", p)
	return ""
}

var refusedCases = []struct {
	name     string
	corefile string
	want     []string // at() of each problem, in order
}{
	// The syntax's own reach.
	{"import of a file", block("import /var/run/secrets/kubernetes.io/serviceaccount/token"), []string{`2 import "/var/run/secrets/kubernetes.io/serviceaccount/token"`}},
	{"import of a glob", "import conf.d/*.server\n", []string{`1 import "conf.d/*.server"`}},
	{"import of a snippet defined below it", block("import later") + "(later) {\n    log\n}\n", []string{`2 import "later"`}},
	{"an environment variable", block("chaos {$KUBERNETES_SERVICE_HOST}"), []string{`2 word "{$KUBERNETES_SERVICE_HOST}"`}},
	{"an environment variable joined by a carriage return", block("chaos {\r$KUBERNETES_SERVICE_HOST}"), []string{`2 word "{$KUBERNETES_SERVICE_HOST}"`}},
	{"a Windows-style environment variable", block("forward . {%UPSTREAM%}"), []string{`2 word "{%UPSTREAM%}"`, `2 forward argument "{%UPSTREAM%}"`}},
	{"a plugin outside the standard build", block("k8s_gateway example.com"), []string{"2 k8s_gateway"}},
	{"a plugin name in capitals", block("Kubernetes cluster.local"), []string{"2 Kubernetes"}},
	{"an option on the brace's line", block("forward . 1.1.1.1 { max_fails 2", "}"), []string{"2 forward layout"}},
	{"nested braces", block("kubernetes cluster.local {", "    pods insecure {", "    }", "}"), []string{"2 kubernetes layout"}},
	{"a word after the closing brace", block("hosts {", "    fallthrough", "} /etc/passwd"), []string{"2 hosts layout"}},

	// Plugins refused whatever they are given.
	{"auto", block("auto {", "    directory /var/run/secrets/kubernetes.io/serviceaccount", "}"), []string{"2 auto"}},
	{"azure", block("azure rg:example.com"), []string{"2 azure"}},
	{"clouddns", block("clouddns example.com:project:zone"), []string{"2 clouddns"}},
	{"dnssec", block("dnssec {", "    key file /etc/coredns/Kexample.org", "}"), []string{"2 dnssec"}},
	{"file", block("file /var/run/secrets/kubernetes.io/serviceaccount/token example.com"), []string{"2 file"}},
	{"geoip", block("geoip /proc/self/environ"), []string{"2 geoip"}},
	{"on", block("on startup /coredns -conf /var/run/secrets/kubernetes.io/serviceaccount/token"), []string{"2 on"}},
	{"pprof", block("pprof 0.0.0.0:6053"), []string{"2 pprof"}},
	{"route53", block("route53 example.com.:Z1D633PJN98FT9"), []string{"2 route53"}},
	{"sign", block("sign db.example.org {", "    key file Kexample.org", "}"), []string{"2 sign"}},
	{"tls", block("tls /var/run/secrets/kubernetes.io/serviceaccount/ca.crt /var/run/secrets/kubernetes.io/serviceaccount/token"), []string{"2 tls"}},
	{"transfer", block("transfer {", "    to *", "}"), []string{"2 transfer"}},

	// Options refused.
	{"kubernetes kubeconfig", block("kubernetes cluster.local {", "    kubeconfig /etc/coredns/kubeconfig", "}"), []string{`3 kubernetes option "kubeconfig"`}},
	{"kubernetes endpoint", block("kubernetes cluster.local {", "    endpoint https://203.0.113.7:6443", "}"), []string{`3 kubernetes option "endpoint"`}},
	{"kubernetes tls", block("kubernetes cluster.local {", "    tls cert key ca", "}"), []string{`3 kubernetes option "tls"`}},
	{"kubernetes endpoint with tls", block("kubernetes cluster.local {", "    endpoint https://203.0.113.7:6443", "    tls /a /b /c", "}"),
		[]string{`3 kubernetes option "endpoint"`, `4 kubernetes option "tls"`}},
	{"forward tls with files", block("forward . tls://9.9.9.9 {", "    tls /var/run/secrets/kubernetes.io/serviceaccount/ca.crt", "}"), []string{`3 forward option "tls"`}},
	{"grpc tls with files", block("grpc . 203.0.113.1:443 {", "    tls cert key", "}"), []string{`3 grpc option "tls"`}},
	{"etcd tls with files", block("etcd example.com {", "    endpoint https://203.0.113.1:2379", "    tls cert key ca", "}"), []string{`4 etcd option "tls"`}},
	{"loadbalance weighted", block("loadbalance weighted /var/run/secrets/kubernetes.io/serviceaccount/token"), []string{`2 loadbalance option "weighted"`}},
	{"tsig secrets", block("tsig {", "    secrets /var/run/secrets/kubernetes.io/serviceaccount/token", "}"), []string{`3 tsig option "secrets"`}},

	// Arguments refused.
	{"forward to a file", block("forward . /var/run/secrets/kubernetes.io/serviceaccount/token"), []string{`2 forward argument "/var/run/secrets/kubernetes.io/serviceaccount/token"`}},
	{"forward to a relative file", block("forward . 1.1.1.1 resolv.conf"), []string{`2 forward argument "resolv.conf"`}},
	{"forward to a socket", block("forward . unix:///run/socket"), []string{`2 forward argument "unix:///run/socket"`}},
	{"forward to a host name", block("forward . dns.google"), []string{`2 forward argument "dns.google"`}},
	{"grpc to a file", block("grpc . /etc/passwd"), []string{`2 grpc argument "/etc/passwd"`}},
	{"hosts from another file", block("hosts /proc/self/environ example.com"), []string{`2 hosts argument "/proc/self/environ"`}},
	{"autopath from another file", block("autopath /var/run/secrets/kubernetes.io/serviceaccount/namespace"), []string{`2 autopath argument "/var/run/secrets/kubernetes.io/serviceaccount/namespace"`}},
	{"dnstap to a socket", block("dnstap unix:///tmp/dnstap.sock full"), []string{`2 dnstap argument "unix:///tmp/dnstap.sock"`}},
	{"dnstap to a bare path", block("dnstap /tmp/dnstap.sock"), []string{`2 dnstap argument "/tmp/dnstap.sock"`}},

	// What a reader might miss, CoreDNS does not.
	{"the tester's chain: kubeconfig in a snippet imported in the block", "(creds) {\n    kubeconfig /etc/coredns/kubeconfig\n}\n" +
		block("kubernetes cluster.local {", "    import creds", "}"), []string{`2 kubernetes option "kubeconfig"`}},
	{"an option in capitals", block("kubernetes cluster.local {", "    KUBECONFIG /k", "}"), []string{`3 kubernetes option "KUBECONFIG"`}},
	{"a carriage return inside the option", block("kubernetes cluster.local {", "    kube\rconfig /k", "}"), []string{`3 kubernetes option "kubeconfig"`}},
	{"an option after a comment inside a word", block("kubernetes cluster.local {", "    pods insecure#x kubeconfig /k", "}"), []string{`3 kubernetes option "kubeconfig"`}},
	{"an option where tls_servername leaves words", block("forward . tls://9.9.9.9 {", "    tls_servername dns.quad9.net tls /ca.crt", "}"), []string{`3 forward option "tls"`}},
	{"an option in a quoted word", block("kubernetes cluster.local {", "    \"kubeconfig\" /k", "}"), []string{`3 kubernetes option "kubeconfig"`}},
	{"a block without addresses is checked too", "{\n    file /etc/passwd\n}\n", []string{"2 file"}},
	{"an environment reference in a snippet never imported", "(unused) {\n    chaos {$HOME}\n}\n", []string{`2 word "{$HOME}"`}},
	{"every problem at once, each once", "(s) {\n    file /a\n}\n" + block("import s", "import s", "pprof", "kubernetes cluster.local {", "    kubeconfig /k", "    endpoint https://x", "}", "forward . /etc/passwd 8.8.8.8"),
		[]string{"2 file", "7 pprof", `9 kubernetes option "kubeconfig"`, `10 kubernetes option "endpoint"`, `12 forward argument "/etc/passwd"`}},
}

func TestCheckRefuses(t *testing.T) {
	for _, tc := range refusedCases {
		t.Run(tc.name, func(t *testing.T) {
			problems, err := Check(tc.corefile)
			require.NoError(t, err)
			var got []string
			for _, p := range problems {
				got = append(got, at(p))
				assert.Equal(t, reasonFor(t, p), p.Reason, "%s", p)
				assert.Contains(t, p.String(), p.Reason)
			}
			assert.Equal(t, tc.want, got)
		})
	}
}

// Every refusal of the table has a case above: a rule added without a test fails here.
func TestEveryRefusalIsTested(t *testing.T) {
	tested := map[string]bool{}
	for _, tc := range refusedCases {
		problems, _ := Check(tc.corefile)
		for _, p := range problems {
			kind := p.Plugin + " " + strings.ToLower(p.What)
			if i := strings.IndexByte(p.What, ' '); strings.HasPrefix(p.What, "argument ") && i > 0 {
				kind = p.Plugin + " argument"
			}
			tested[kind] = true
		}
	}
	for _, p := range plugins {
		if p.refused != "" {
			assert.True(t, tested[p.name+" "], "no case refuses plugin %s", p.name)
		}
		for _, o := range p.options {
			assert.True(t, tested[fmt.Sprintf("%s option %q", p.name, o.name)], "no case refuses %s option %s", p.name, o.name)
		}
		if p.args != nil {
			assert.True(t, tested[p.name+" argument"], "no case refuses an argument of %s", p.name)
		}
	}
}

// kopsDefault is the Corefile kops renders without settings (as the golden cases show it).
const kopsDefault = `.:53 {
    errors
    health {
        lameduck 5s
    }
    ready
    kubernetes cluster.local in-addr.arpa ip6.arpa {
        pods insecure
        fallthrough in-addr.arpa ip6.arpa
        ttl 30
    }
    prometheus :9153
    forward . /etc/resolv.conf {
        max_concurrent 1000
    }
    cache 30
    loop
    reload
    loadbalance
}
`

func TestCheckAccepts(t *testing.T) {
	for name, corefile := range map[string]string{
		"kops's default": kopsDefault,
		"stub domains": kopsDefault + `corp.example.com:53 {
    errors
    cache 30
    forward . 10.0.0.10 10.0.0.11:5353 [2001:db8::53]:53
}
`,
		"forward over TLS": block("forward . tls://9.9.9.9 tls://149.112.112.112 tls://[2620:fe::fe]:853 {",
			"    tls_servername dns.quad9.net", "    tls", "    health_check 5s", "    policy sequential", "}"),
		"forward with per-upstream server names": block("forward . tls://1.1.1.1%cloudflare-dns.com tls://8.8.8.8%dns.google:853 dns://192.0.2.1 fe80::1%eth0"),
		"cache, loop, reload, loadbalance": block("cache 30 {", "    success 9984 30", "    denial 9984 5", "    prefetch 10", "}",
			"loop", "reload 10s 2s", "loadbalance round_robin {", "    prefer 10.0.0.0/8", "}"),
		"health, ready and prometheus on the pod's ports": block("health :8080 {", "    lameduck 5s", "}", "ready :8181", "prometheus 0.0.0.0:9153"),
		"hosts": block("hosts /etc/hosts example.com {", "    10.0.0.1 db.example.com", "    ttl 60", "    reload 1m", "    fallthrough", "}",
			"hosts {", "    fallthrough", "}"),
		"autopath through kubernetes": block("kubernetes cluster.local {", "    pods verified", "}", "autopath @kubernetes", "autopath cluster.local /etc/resolv.conf"),
		"snippets": "(common) {\n    errors\n    cache 30\n}\n(pods) {\n    pods insecure\n}\n" +
			block("import common", "kubernetes cluster.local {", "    import pods", "}", "forward . /etc/resolv.conf"),
		"rewrites, templates and logs": block("rewrite name suffix .legacy.local .cluster.local", "rewrite stop {", "    name regex (.*)\\.db\\.local {1}.svc.cluster.local", "    answer auto", "}",
			"template IN A example.com {", "    match \"^(?P<a>[0-9]*)\\.example\\.com\\.$\"", "    answer \"{{ .Name }} 60 IN A 10.0.0.{{ .Group.a }}\"", "}",
			"log . \"{remote} {type} {name}\" {", "    class denial error", "}", "errors {", "    consolidate 5m \".* i/o timeout$\" warning", "}"),
		"remote sources without credentials of the pod": block("etcd skydns.local {", "    path /skydns", "    endpoint http://203.0.113.10:2379", "    credentials coredns s3cret", "    tls", "}",
			"secondary example.org {", "    transfer from 203.0.113.53", "}", "dnstap tcp://203.0.113.9:6000 full", "trace zipkin 203.0.113.4:9411",
			"nomad service.nomad {", "    address https://203.0.113.5:4646", "    token 8b0b7b50", "}", "tsig {", "    secret example.org. c2VjcmV0", "    require all", "}"),
		"the rest of the build": block("acl {", "    allow net 10.0.0.0/8", "    block", "}", "any", "bind 0.0.0.0", "bufsize 1232", "cancel 2s", "chaos CoreDNS-kops",
			"debug", "dns64 64:ff9b::/96", "erratic {", "    drop 3", "}", "header {", "    response set ra", "}", "k8s_external example.com", "local", "metadata",
			"minimal", "multisocket 2", "nsid kops", "root /etc/coredns", "timeouts {", "    read 10s", "}", "view internal {", "    expr incidr(client_ip(), '10.0.0.0/8')", "}",
			"whoami", "shed", "proxyproto {", "    allow 10.0.0.0/8", "}", "grpc_server {", "    max_streams 100", "}", "https", "https3", "quic"),
		"comments, quotes and Windows line ends": "# kops cluster DNS\r\n.:53 {\r\n    errors # log them\r\n    forward \".\" \"/etc/resolv.conf\"\r\n}\r\n",
	} {
		t.Run(name, func(t *testing.T) {
			problems, err := Check(corefile)
			require.NoError(t, err)
			assert.Empty(t, problems)
		})
	}
}

// A Corefile CoreDNS could not load is an error, with the problems found before it.
func TestCheckSyntaxError(t *testing.T) {
	problems, err := Check(".:53 {\n    file /a\n    kubernetes cluster.local {\n        pods insecure\n")
	assert.ErrorContains(t, err, "line 3: directive \"kubernetes\": a '{' is not closed")
	assert.Equal(t, []Problem{{Line: 2, Plugin: "file", Reason: pluginsByName["file"].refused}}, problems)

	_, err = Check("a \"open")
	assert.ErrorContains(t, err, "not closed")
}

// The table decides every plugin of CoreDNS 1.14's standard build, once.
func TestTableCoversTheBuild(t *testing.T) {
	build := strings.Fields(`acl any auto autopath azure bind bufsize cache cancel chaos clouddns debug dns64 dnssec dnstap
		erratic errors etcd file forward geoip grpc grpc_server header health hosts https https3 k8s_external kubernetes
		loadbalance local log loop metadata minimal multisocket nomad nsid on pprof prometheus proxyproto quic ready reload
		rewrite root route53 secondary shed sign template timeouts tls trace transfer tsig view whoami`)
	var names []string
	for _, p := range plugins {
		names = append(names, p.name)
		assert.True(t, (p.refused == "") != (p.allowed == ""), "%s is either refused or allowed, with a reason", p.name)
		assert.True(t, p.refused == "" || (p.options == nil && p.args == nil), "%s: a refused plugin has no option rules", p.name)
	}
	assert.Equal(t, build, names)
}
