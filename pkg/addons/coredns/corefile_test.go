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
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"k8s.io/kops/pkg/apis/kops"
)

// mainBlock is the main server block with the given domain and forward targets.
func mainBlock(domain, forward string) string {
	return `.:53 {
    errors
    health {
        lameduck 5s
    }
    ready
    kubernetes ` + domain + ` in-addr.arpa ip6.arpa {
        pods insecure
        fallthrough in-addr.arpa ip6.arpa
        ttl 30
    }
    prometheus :9153
    forward . ` + forward + ` {
        max_concurrent 1000
    }
    cache 30
    loop
    reload
    loadbalance
}
`
}

func TestCorefile(t *testing.T) {
	tests := []struct {
		name string
		dns  *kops.KubeDNSConfig
		want string
	}{
		{
			name: "defaults forward to resolv.conf",
			dns:  &kops.KubeDNSConfig{Domain: "cluster.local"},
			want: mainBlock("cluster.local", "/etc/resolv.conf"),
		},
		{
			name: "nil config uses the default domain",
			dns:  nil,
			want: mainBlock("cluster.local", "/etc/resolv.conf"),
		},
		{
			name: "custom domain and upstream nameservers",
			dns:  &kops.KubeDNSConfig{Domain: "corp.internal", UpstreamNameservers: []string{"10.0.0.2", " ", "1.1.1.1"}},
			want: mainBlock("corp.internal", "10.0.0.2 1.1.1.1"),
		},
		{
			name: "IPv6 upstream nameservers",
			dns:  &kops.KubeDNSConfig{Domain: "cluster.local", UpstreamNameservers: []string{"2001:4860:4860::8888", "fd00:ec2::253"}},
			want: mainBlock("cluster.local", "2001:4860:4860::8888 fd00:ec2::253"),
		},
		{
			name: "stub domains are sorted, empty ones skipped, IPv6 reverse zone and servers kept",
			dns: &kops.KubeDNSConfig{
				Domain: "cluster.local",
				StubDomains: map[string][]string{
					"zeta.example.com":      {"10.1.0.10"},
					"acme.local":            {"10.2.0.10", "10.2.0.11"},
					"d.f.ip6.arpa":          {"fd00:1::53", "[fd00:1::54]:5353"},
					"empty.example.com":     {},
					"blank.example.com":     {""},
					"10.in-addr.arpa":       {"10.0.0.53"},
					"consul.service.local.": {"10.3.0.1"},
				},
			},
			want: mainBlock("cluster.local", "/etc/resolv.conf") + `10.in-addr.arpa:53 {
    errors
    cache 30
    forward . 10.0.0.53
}
acme.local:53 {
    errors
    cache 30
    forward . 10.2.0.10 10.2.0.11
}
consul.service.local.:53 {
    errors
    cache 30
    forward . 10.3.0.1
}
d.f.ip6.arpa:53 {
    errors
    cache 30
    forward . fd00:1::53 [fd00:1::54]:5353
}
zeta.example.com:53 {
    errors
    cache 30
    forward . 10.1.0.10
}
`,
		},
		{
			name: "externalCoreFile is returned verbatim",
			dns: &kops.KubeDNSConfig{
				Domain:              "cluster.local",
				UpstreamNameservers: []string{"10.0.0.2"},
				ExternalCoreFile:    ".:53 {\n  forward . 8.8.8.8\n}",
			},
			want: ".:53 {\n  forward . 8.8.8.8\n}",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, Corefile(tt.dns))
		})
	}
}

func TestCorefileIsDeterministic(t *testing.T) {
	dns := &kops.KubeDNSConfig{StubDomains: map[string][]string{"a": {"1.1.1.1"}, "b": {"2.2.2.2"}, "c": {"3.3.3.3"}}}
	first := Corefile(dns)
	for i := 0; i < 20; i++ {
		assert.Equal(t, first, Corefile(dns))
	}
}

// Every line of the rendered Corefile names the field that wrote it, so validation can report a
// problem in the text on the field the user set.
func TestCorefileSources(t *testing.T) {
	dns := &kops.KubeDNSConfig{
		Domain:              "corp.internal",
		UpstreamNameservers: []string{"10.0.0.2"},
		StubDomains:         map[string][]string{"a.example": {"10.0.0.3"}, "b.example": {"10.0.0.4\nfile /etc/passwd"}},
	}
	text, sources := CorefileSources(dns)
	assert.Equal(t, Corefile(dns), text)
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	require.Len(t, sources, len(lines))
	from := map[string]Source{}
	for i, l := range lines {
		from[strings.TrimSpace(l)] = sources[i]
	}
	assert.Equal(t, Source{Field: "domain"}, from["kubernetes corp.internal in-addr.arpa ip6.arpa {"])
	assert.Equal(t, Source{}, from["pods insecure"])
	assert.Equal(t, Source{Field: "upstreamNameservers"}, from["forward . 10.0.0.2 {"])
	assert.Equal(t, Source{}, from["max_concurrent 1000"])
	assert.Equal(t, Source{Field: "stubDomains", Key: "a.example"}, from["forward . 10.0.0.3"])
	assert.Equal(t, Source{Field: "stubDomains", Key: "b.example"}, from["file /etc/passwd"], "a value's second line")

	_, sources = CorefileSources(&kops.KubeDNSConfig{})
	assert.NotContains(t, sources, Source{Field: "upstreamNameservers"}, "/etc/resolv.conf is kops's own")

	text, sources = CorefileSources(&kops.KubeDNSConfig{ExternalCoreFile: ". {\n  whoami\n}"})
	assert.Equal(t, ". {\n  whoami\n}", text)
	assert.Equal(t, []Source{{Field: "externalCoreFile"}, {Field: "externalCoreFile"}, {Field: "externalCoreFile"}}, sources)
}
