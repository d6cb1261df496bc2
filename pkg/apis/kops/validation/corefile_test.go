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
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"k8s.io/kops/pkg/apis/kops"
)

// theTestersCorefile is the token theft a tester showed: the kubernetes plugin reads a kubeconfig
// whose server is outside the cluster and whose tokenFile is the pod's own token.
const theTestersCorefile = `.:53 {
    errors
    kubernetes cluster.local in-addr.arpa ip6.arpa {
        kubeconfig /etc/coredns/kubeconfig
        pods insecure
    }
    forward . /etc/resolv.conf
}
`

func TestValidateCorefileRefuses(t *testing.T) {
	const ext = "spec.kubeDNS.externalCoreFile"
	external := func(corefile string) func(c *kops.Cluster) {
		return func(c *kops.Cluster) { c.Spec.KubeDNS = &kops.KubeDNSConfig{ExternalCoreFile: corefile} }
	}
	tests := []struct {
		name   string
		mutate func(c *kops.Cluster)
		want   []want
	}{
		{"the tester's kubeconfig", external(theTestersCorefile),
			[]want{{forbidden, ext, `in the Corefile, line 4: plugin "kubernetes", option "kubeconfig": reads a kubeconfig file: its server may be anywhere and its ` + "`tokenFile`" + ` the pod's own token`}}},
		{"another API server", external(".:53 {\n    kubernetes cluster.local {\n        endpoint https://203.0.113.7:6443\n    }\n}\n"),
			[]want{{forbidden, ext, `in the Corefile, line 3: plugin "kubernetes", option "endpoint": connects to another API server`}}},
		{"every problem at once", external("import /etc/coredns/*.conf\n.:53 {\n    file /var/run/secrets/kubernetes.io/serviceaccount/token\n    chaos {$KUBERNETES_SERVICE_HOST}\n    pprof\n    forward . 8.8.8.8 /proc/self/environ\n}\n"),
			[]want{
				{forbidden, ext, `in the Corefile, line 1: import "/etc/coredns/*.conf": CoreDNS reads every file`},
				{forbidden, ext, `in the Corefile, line 3: plugin "file": reads the zone file`},
				{forbidden, ext, `in the Corefile, line 4: word "{$KUBERNETES_SERVICE_HOST}": CoreDNS replaces`},
				{forbidden, ext, `in the Corefile, line 5: plugin "pprof": serves the profiles`},
				{forbidden, ext, `in the Corefile, line 6: plugin "forward", argument "/proc/self/environ": an upstream that is not an IP address`},
			}},
		{"a Corefile CoreDNS cannot load", external(".:53 {\n    errors\n    kubernetes cluster.local {\n        pods insecure\n"),
			[]want{{invalid, ext, `"kubernetes cluster.local {": in the Corefile, line 3: directive "kubernetes": a '{' is not closed`}}},
		{"not UTF-8", external(".:53 {\n    chaos \xff\n}\n"),
			[]want{{invalid, ext, "in the Corefile, line 2: the Corefile is not UTF-8 text"}}},
		{"other fields are still checked", func(c *kops.Cluster) {
			c.Spec.KubeDNS = &kops.KubeDNSConfig{ExternalCoreFile: ".:53 {\n    tls /a /b\n}\n", UpstreamNameservers: []string{"dns.google"}}
		}, []want{
			{forbidden, ext, `in the Corefile, line 2: plugin "tls"`},
			{invalid, "spec.kubeDNS.upstreamNameservers[0]", "must be an IP address"},
		}},
		// The Corefile kops renders is not checked again when a field it carries is already
		// refused: one mistake, one error.
		{"a rendered field's own error is reported once", func(c *kops.Cluster) {
			c.Spec.KubeDNS = &kops.KubeDNSConfig{UpstreamNameservers: []string{"/var/run/secrets/kubernetes.io/serviceaccount/token"}}
		}, []want{{invalid, "spec.kubeDNS.upstreamNameservers[0]", "must be an IP address"}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assertErrors(t, ValidateCluster(completed(t, tc.mutate)), tc.want...)
		})
	}
}

func TestValidateCorefileAccepts(t *testing.T) {
	for name, dns := range map[string]*kops.KubeDNSConfig{
		"kops's default":           nil,
		"domain, upstreams, stubs": {Domain: "corp.internal", UpstreamNameservers: []string{"10.0.0.2", "2001:db8::53"}, StubDomains: map[string][]string{"a.example": {"10.0.0.3", "10.0.0.4:5353"}, "b.example.": {"[2001:db8::1]:53"}}},
		"an external Corefile": {ExternalCoreFile: `.:53 {
    errors
    health {
        lameduck 10s
    }
    ready
    kubernetes corp.local in-addr.arpa ip6.arpa {
        pods verified
        fallthrough in-addr.arpa ip6.arpa
    }
    # Answer for the legacy domain too.
    rewrite name suffix .legacy.local .corp.local
    prometheus :9153
    forward . tls://9.9.9.9 {
        tls_servername dns.quad9.net
    }
    cache 60
    loop
    reload
}
`},
	} {
		t.Run(name, func(t *testing.T) {
			assertErrors(t, ValidateCluster(completed(t, func(c *kops.Cluster) { c.Spec.KubeDNS = dns })))
		})
	}
}

// What the fields kops renders could inject into its Corefile is refused on the field, even though
// the fields' own checks refuse such values first (so ValidateCluster never gets this far with them).
func TestValidateRenderedCorefile(t *testing.T) {
	path := field.NewPath("spec", "kubeDNS")
	tests := []struct {
		name string
		dns  kops.KubeDNSConfig
		want []want
	}{
		{"an upstream that is a file", kops.KubeDNSConfig{UpstreamNameservers: []string{"/var/run/secrets/kubernetes.io/serviceaccount/token"}},
			[]want{{forbidden, "spec.kubeDNS.upstreamNameservers", `in the Corefile kops renders, line 13: plugin "forward", argument "/var/run/secrets/kubernetes.io/serviceaccount/token"`}}},
		{"a stub domain's server that adds a plugin", kops.KubeDNSConfig{StubDomains: map[string][]string{"corp.example": {"10.0.0.1\n    file /etc/passwd"}}},
			[]want{{forbidden, "spec.kubeDNS.stubDomains[corp.example]", `in the Corefile kops renders, line 25: plugin "file"`}}},
		{"a domain that adds a plugin", kops.KubeDNSConfig{Domain: "cluster.local\n    pprof"},
			[]want{{forbidden, "spec.kubeDNS.domain", `in the Corefile kops renders, line 8: plugin "pprof"`}}},
		{"a domain that breaks the Corefile", kops.KubeDNSConfig{Domain: "cluster.local }"},
			[]want{{invalid, "spec.kubeDNS.domain", `in the Corefile kops renders, line 7: unexpected '}'`}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assertErrors(t, validateCorefile(&tc.dns, path, true), tc.want...)
		})
	}
	require.Empty(t, validateCorefile(&kops.KubeDNSConfig{}, path, true))
	assert.Empty(t, validateCorefile(&kops.KubeDNSConfig{UpstreamNameservers: []string{"/etc/passwd"}}, path, false),
		"not checked again when the fields' own checks failed")
}
