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

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"

	"k8s.io/kops/pkg/apis/kops"
)

func TestValidateKubeDNSErrors(t *testing.T) {
	dns := func(d kops.KubeDNSConfig) func(c *kops.Cluster) {
		return func(c *kops.Cluster) { c.Spec.KubeDNS = &d }
	}
	toleration := func(tol corev1.Toleration) func(c *kops.Cluster) {
		return dns(kops.KubeDNSConfig{Tolerations: []corev1.Toleration{{Operator: corev1.TolerationOpExists}, tol}})
	}
	const p = "spec.kubeDNS."
	tests := []struct {
		name   string
		mutate func(c *kops.Cluster)
		want   []want
	}{
		{"provider typo", dns(kops.KubeDNSConfig{Provider: "CoreDns"}),
			[]want{{notSupported, p + "provider", `"CoreDNS"`}}},
		{"provider KubeDNS not deployed by this build", dns(kops.KubeDNSConfig{Provider: kops.DNSProviderKubeDNS}),
			[]want{{notSupported, p + "provider", `"CoreDNS"`}}},
		{"serverIP not an IP", dns(kops.KubeDNSConfig{ServerIP: "dns.local"}),
			[]want{{invalid, p + "serverIP", "must be an IP address"}}},
		{"serverIP outside service range", dns(kops.KubeDNSConfig{ServerIP: "100.72.0.10"}),
			[]want{{invalid, p + "serverIP", `must lie inside spec.serviceClusterIPRange "100.64.0.0/13"`}}},
		{"serverIP of the wrong family", dns(kops.KubeDNSConfig{ServerIP: "fd00:5e4f:ce::a"}),
			[]want{{invalid, p + "serverIP", "same IP family"}}},
		{"serverIP IPv4 in an IPv6 cluster", func(c *kops.Cluster) {
			c.Spec.NonMasqueradeCIDR = "::/0"
			c.Spec.KubeDNS = &kops.KubeDNSConfig{ServerIP: "100.64.0.10"}
		}, []want{{invalid, p + "serverIP", "same IP family"}}},
		{"serverIP not checked against a malformed range", func(c *kops.Cluster) {
			c.Spec.ServiceClusterIPRange = "bogus"
			c.Spec.KubeDNS = &kops.KubeDNSConfig{ServerIP: "10.0.0.10"}
		}, []want{{invalid, "spec.serviceClusterIPRange", "must be a CIDR"}}},
		{"serverIP the service range's network address", dns(kops.KubeDNSConfig{ServerIP: "100.64.0.0"}),
			[]want{{invalid, p + "serverIP", `is the network address of spec.serviceClusterIPRange "100.64.0.0/13"`}}},
		{"serverIP the service range's broadcast address", dns(kops.KubeDNSConfig{ServerIP: "100.71.255.255"}),
			[]want{{invalid, p + "serverIP", `is the broadcast address of spec.serviceClusterIPRange "100.64.0.0/13"`}}},
		{"serverIP an IPv6 service range's network address", func(c *kops.Cluster) {
			c.Spec.NonMasqueradeCIDR = "::/0"
			c.Spec.KubeDNS = &kops.KubeDNSConfig{ServerIP: "fd00:5e4f:ce::"}
		}, []want{{invalid, p + "serverIP", `is the network address of spec.serviceClusterIPRange "fd00:5e4f:ce::/108"`}}},
		{"service range too small for the default serverIP", func(c *kops.Cluster) { c.Spec.ServiceClusterIPRange = "100.64.0.0/29" },
			[]want{{invalid, p + "serverIP", "must lie inside"}}},
		{"domain not a DNS subdomain", dns(kops.KubeDNSConfig{Domain: "cluster_local"}),
			[]want{{invalid, p + "domain", "RFC 1123"}}},
		{"upstream nameserver not an IP", dns(kops.KubeDNSConfig{UpstreamNameservers: []string{"8.8.8.8", "dns.google"}}),
			[]want{{invalid, p + "upstreamNameservers[1]", "IP address"}}},
		{"stub domains", dns(kops.KubeDNSConfig{StubDomains: map[string][]string{
			"example.com": {"10.0.0.1", "10.0.0.2:53", "ns.example.com", "10.0.0.3:0", "10.0.0.4:dns"},
			"bad_domain":  {"10.0.0.1"},
		}}), []want{
			{invalid, p + "stubDomains[example.com][2]", "IP:port"},
			{invalid, p + "stubDomains[example.com][3]", "IP:port"},
			{invalid, p + "stubDomains[example.com][4]", "IP:port"},
			{invalid, p + "stubDomains[bad_domain]", "RFC 1123"},
		}},
		{"memory limit below request", dns(kops.KubeDNSConfig{
			MemoryRequest: ptr(resource.MustParse("200Mi")), MemoryLimit: ptr(resource.MustParse("100Mi")),
		}), []want{{invalid, p + "memoryLimit", "spec.kubeDNS.memoryRequest"}}},
		{"memory limit below defaulted request", dns(kops.KubeDNSConfig{MemoryLimit: ptr(resource.MustParse("10Mi"))}),
			[]want{{invalid, p + "memoryLimit", "greater than or equal"}}},
		{"negative quantities", dns(kops.KubeDNSConfig{
			CPURequest:    ptr(resource.MustParse("-100m")),
			MemoryRequest: ptr(resource.MustParse("-1Mi")),
			MemoryLimit:   ptr(resource.MustParse("-1Mi")),
		}), []want{
			{invalid, p + "cpuRequest", "negative"},
			{invalid, p + "memoryRequest", "negative"},
			{invalid, p + "memoryLimit", "negative"},
		}},
		{"toleration operator unknown", toleration(corev1.Toleration{Key: "k", Operator: "In"}),
			[]want{{notSupported, p + "tolerations[1].operator", `"Exists"`}}},
		{"toleration Exists with a value", toleration(corev1.Toleration{Key: "k", Operator: corev1.TolerationOpExists, Value: "v"}),
			[]want{{invalid, p + "tolerations[1].value", "Exists"}}},
		{"toleration without key must be Exists", toleration(corev1.Toleration{Operator: corev1.TolerationOpEqual, Value: "v"}),
			[]want{{invalid, p + "tolerations[1].operator", "key is empty"}}},
		{"toleration effect unknown", toleration(corev1.Toleration{Key: "k", Effect: "Never"}),
			[]want{{notSupported, p + "tolerations[1].effect", `"NoExecute"`}}},
		{"toleration key invalid", toleration(corev1.Toleration{Key: "bad key", Operator: corev1.TolerationOpExists}),
			[]want{{invalid, p + "tolerations[1].key", ""}}},
		{"tolerationSeconds without NoExecute", toleration(corev1.Toleration{Key: "k", Effect: corev1.TaintEffectNoSchedule, TolerationSeconds: ptr[int64](5)}),
			[]want{{invalid, p + "tolerations[1].tolerationSeconds", "NoExecute"}}},
		{"pod annotation key invalid", dns(kops.KubeDNSConfig{PodAnnotations: map[string]string{"ok/key": "", "bad key": "v"}}),
			[]want{{invalid, p + "podAnnotations", "bad key"}}},
		{"coreDNSImage with scheme", dns(kops.KubeDNSConfig{CoreDNSImage: "https://registry.k8s.io/coredns/coredns:v1.12.0"}),
			[]want{{invalid, p + "coreDNSImage", "scheme"}}},
		{"coreDNSImage with spaces", dns(kops.KubeDNSConfig{CoreDNSImage: "coredns/coredns v1.12.0"}),
			[]want{{invalid, p + "coreDNSImage", "whitespace"}}},
		{"operatorMode near miss", dns(kops.KubeDNSConfig{OperatorMode: "client-side"}),
			[]want{{invalid, p + "operatorMode", `did you mean "ClientSide"?`}}},
		{"operatorMode wrong case", dns(kops.KubeDNSConfig{OperatorMode: "serverside"}),
			[]want{{invalid, p + "operatorMode", `did you mean "ServerSide"?`}}},
		{"operatorMode unknown", dns(kops.KubeDNSConfig{OperatorMode: "Operator"}),
			[]want{{notSupported, p + "operatorMode", `"ClientSide"`}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assertErrors(t, ValidateCluster(completed(t, tc.mutate)), tc.want...)
		})
	}
}

func TestValidateKubeDNSAcceptsOperatorModes(t *testing.T) {
	for _, mode := range []string{"", kops.OperatorModeServerSide, kops.OperatorModeClientSide} {
		t.Run(mode, func(t *testing.T) {
			c := completed(t, func(c *kops.Cluster) { c.Spec.KubeDNS = &kops.KubeDNSConfig{OperatorMode: mode} })
			assertErrors(t, ValidateCluster(c))
		})
	}
}

// The addresses next to the ones no Service can have are fine, and IPv6 has no broadcast address.
func TestValidateKubeDNSServerIPEdges(t *testing.T) {
	for _, tc := range []struct{ nonMasq, serverIP string }{
		{"100.64.0.0/10", "100.64.0.1"},
		{"100.64.0.0/10", "100.71.255.254"},
		{"::/0", "fd00:5e4f:ce::1"},
		{"::/0", "fd00:5e4f:ce::f:ffff"},
	} {
		t.Run(tc.serverIP, func(t *testing.T) {
			assertErrors(t, ValidateCluster(completed(t, func(c *kops.Cluster) {
				c.Spec.NonMasqueradeCIDR = tc.nonMasq
				c.Spec.KubeDNS = &kops.KubeDNSConfig{ServerIP: tc.serverIP}
			})))
		})
	}
}
