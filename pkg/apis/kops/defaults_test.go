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

package kops

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

func TestCompleteCluster(t *testing.T) {
	named := func(spec ClusterSpec) *Cluster {
		return &Cluster{ObjectMeta: metav1.ObjectMeta{Name: "a.example.com"}, Spec: spec}
	}
	tests := []struct {
		name  string
		in    *Cluster
		store string
		check func(t *testing.T, s ClusterSpec)
	}{
		{
			name:  "empty spec gets every default",
			in:    named(ClusterSpec{}),
			store: "memfs://test",
			check: func(t *testing.T, s ClusterSpec) {
				assert.Equal(t, DefaultChannel, s.Channel)
				assert.Equal(t, "memfs://test/a.example.com", s.ConfigBase)
				assert.Equal(t, "100.64.0.0/10", s.NonMasqueradeCIDR)
				assert.Equal(t, "100.64.0.0/13", s.ServiceClusterIPRange)
				require.NotNil(t, s.KubeDNS)
				assert.Equal(t, DNSProviderCoreDNS, s.KubeDNS.Provider)
				assert.Equal(t, "100.64.0.10", s.KubeDNS.ServerIP)
				assert.Equal(t, "cluster.local", s.KubeDNS.Domain)
				require.NotNil(t, s.KubeDNS.CPURequest)
				require.NotNil(t, s.KubeDNS.MemoryRequest)
				require.NotNil(t, s.KubeDNS.MemoryLimit)
				assert.Equal(t, "100m", s.KubeDNS.CPURequest.String())
				assert.Equal(t, "70Mi", s.KubeDNS.MemoryRequest.String())
				assert.Equal(t, "170Mi", s.KubeDNS.MemoryLimit.String())
				assert.Equal(t, &AuthorizationSpec{RBAC: &RBACAuthorizationSpec{}}, s.Authorization)
			},
		},
		{
			name:  "store with trailing slash",
			in:    named(ClusterSpec{}),
			store: "file:///tmp/state/",
			check: func(t *testing.T, s ClusterSpec) {
				assert.Equal(t, "file:///tmp/state/a.example.com", s.ConfigBase)
			},
		},
		{
			name:  "no store leaves configBase empty",
			in:    named(ClusterSpec{}),
			check: func(t *testing.T, s ClusterSpec) { assert.Empty(t, s.ConfigBase) },
		},
		{
			name:  "no name leaves configBase empty",
			in:    &Cluster{},
			store: "memfs://test",
			check: func(t *testing.T, s ClusterSpec) { assert.Empty(t, s.ConfigBase) },
		},
		{
			name: "set fields are kept",
			in: named(ClusterSpec{
				Channel:               "alpha",
				ConfigBase:            "s3://bucket/custom",
				NonMasqueradeCIDR:     "10.0.0.0/8",
				ServiceClusterIPRange: "10.96.0.0/12",
				KubeDNS: &KubeDNSConfig{
					Provider: "KubeDNS", ServerIP: "10.96.0.53", Domain: "corp.local",
					CPURequest: quantity("1"), MemoryRequest: quantity("1Gi"), MemoryLimit: quantity("2Gi"),
				},
				Authorization: &AuthorizationSpec{AlwaysAllow: &AlwaysAllowAuthorizationSpec{}},
			}),
			store: "memfs://test",
			check: func(t *testing.T, s ClusterSpec) {
				assert.Equal(t, "alpha", s.Channel)
				assert.Equal(t, "s3://bucket/custom", s.ConfigBase)
				assert.Equal(t, "10.0.0.0/8", s.NonMasqueradeCIDR)
				assert.Equal(t, "10.96.0.0/12", s.ServiceClusterIPRange)
				assert.Equal(t, "KubeDNS", s.KubeDNS.Provider)
				assert.Equal(t, "10.96.0.53", s.KubeDNS.ServerIP)
				assert.Equal(t, "corp.local", s.KubeDNS.Domain)
				assert.Equal(t, "1", s.KubeDNS.CPURequest.String())
				assert.Equal(t, "1Gi", s.KubeDNS.MemoryRequest.String())
				assert.Equal(t, "2Gi", s.KubeDNS.MemoryLimit.String())
				assert.Equal(t, &AuthorizationSpec{AlwaysAllow: &AlwaysAllowAuthorizationSpec{}}, s.Authorization)
			},
		},
		{
			name: "explicit empty authorization is kept",
			in:   named(ClusterSpec{Authorization: &AuthorizationSpec{}}),
			check: func(t *testing.T, s ClusterSpec) {
				assert.Equal(t, &AuthorizationSpec{}, s.Authorization)
			},
		},
		{
			// kops's default, whatever nonMasqueradeCIDR is: an AWS VPC CNI cluster's is its VPC.
			name: "IPv4 range is kops's default, not carved from a custom nonMasqueradeCIDR",
			in:   named(ClusterSpec{NonMasqueradeCIDR: "10.0.0.0/8"}),
			check: func(t *testing.T, s ClusterSpec) {
				assert.Equal(t, "100.64.0.0/13", s.ServiceClusterIPRange)
				assert.Equal(t, "100.64.0.10", s.KubeDNS.ServerIP)
			},
		},
		{
			name: "serverIP derived from explicit IPv4 range",
			in:   named(ClusterSpec{ServiceClusterIPRange: "10.96.0.0/12"}),
			check: func(t *testing.T, s ClusterSpec) {
				assert.Equal(t, "100.64.0.0/10", s.NonMasqueradeCIDR)
				assert.Equal(t, "10.96.0.10", s.KubeDNS.ServerIP)
			},
		},
		{
			name: "IPv6 cluster",
			in:   named(ClusterSpec{NonMasqueradeCIDR: "::/0"}),
			check: func(t *testing.T, s ClusterSpec) {
				assert.Equal(t, "fd00:5e4f:ce::/108", s.ServiceClusterIPRange)
				assert.Equal(t, "fd00:5e4f:ce::a", s.KubeDNS.ServerIP)
			},
		},
		{
			name: "explicit IPv6 range",
			in:   named(ClusterSpec{NonMasqueradeCIDR: "::/0", ServiceClusterIPRange: "fd00:1::/112"}),
			check: func(t *testing.T, s ClusterSpec) {
				assert.Equal(t, "fd00:1::/112", s.ServiceClusterIPRange)
				assert.Equal(t, "fd00:1::a", s.KubeDNS.ServerIP)
			},
		},
		{
			name: "unparseable nonMasqueradeCIDR leaves range and serverIP empty",
			in:   named(ClusterSpec{NonMasqueradeCIDR: "not-a-cidr"}),
			check: func(t *testing.T, s ClusterSpec) {
				assert.Equal(t, "not-a-cidr", s.NonMasqueradeCIDR)
				assert.Empty(t, s.ServiceClusterIPRange)
				assert.Empty(t, s.KubeDNS.ServerIP)
			},
		},
		{
			name: "unparseable range leaves serverIP empty",
			in:   named(ClusterSpec{ServiceClusterIPRange: "100.64.0.0/99"}),
			check: func(t *testing.T, s ClusterSpec) {
				assert.Equal(t, "100.64.0.0/99", s.ServiceClusterIPRange)
				assert.Empty(t, s.KubeDNS.ServerIP)
			},
		},
		{
			name: "a small nonMasqueradeCIDR still gets the default range",
			in:   named(ClusterSpec{NonMasqueradeCIDR: "10.0.0.0/30"}),
			check: func(t *testing.T, s ClusterSpec) {
				assert.Equal(t, "100.64.0.0/13", s.ServiceClusterIPRange)
				assert.Equal(t, "100.64.0.10", s.KubeDNS.ServerIP)
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			before := tc.in.DeepCopy()
			out := CompleteCluster(tc.in, tc.store)
			require.NotNil(t, out)
			tc.check(t, out.Spec)
			assert.Equal(t, before, tc.in, "input was mutated")
		})
	}
}

func TestCompleteClusterDoesNotMutateOrShare(t *testing.T) {
	in := &Cluster{
		ObjectMeta: metav1.ObjectMeta{Name: "a.example.com"},
		Spec:       ClusterSpec{KubeDNS: &KubeDNSConfig{StubDomains: map[string][]string{"x.com": {"1.2.3.4"}}}},
		Unmodeled:  Unmodeled{{Path: FieldPath{{Key: "spec"}, {Key: "x"}}, Value: map[string]interface{}{"k": "v"}}},
	}
	out := CompleteCluster(in, "memfs://test")
	require.NotNil(t, out)

	// The input's empty fields stay empty: defaults went to the copy only.
	assert.Empty(t, in.Spec.Channel)
	assert.Empty(t, in.Spec.NonMasqueradeCIDR)
	assert.Empty(t, in.Spec.KubeDNS.Provider)
	assert.Nil(t, in.Spec.KubeDNS.MemoryLimit)
	assert.Nil(t, in.Spec.Authorization)

	out.Spec.KubeDNS.StubDomains["x.com"][0] = "9.9.9.9"
	out.Unmodeled[0].Value.(map[string]interface{})["k"] = "changed"
	assert.Equal(t, "1.2.3.4", in.Spec.KubeDNS.StubDomains["x.com"][0])
	assert.Equal(t, "v", in.Unmodeled[0].Value.(map[string]interface{})["k"])

	// Each completion allocates its own quantities.
	other := CompleteCluster(in, "memfs://test")
	out.Spec.KubeDNS.MemoryLimit.Add(out.Spec.KubeDNS.MemoryLimit.DeepCopy())
	assert.Equal(t, "170Mi", other.Spec.KubeDNS.MemoryLimit.String())

	assert.Nil(t, CompleteCluster(nil, "memfs://test"))
}

func TestDNSServerIP(t *testing.T) {
	for rng, want := range map[string]string{
		"100.64.0.0/13":      "100.64.0.10",
		"100.64.0.5/13":      "100.64.0.10", // from the range's base, not the written address
		"fd00:5e4f:ce::/108": "fd00:5e4f:ce::a",
		"255.255.255.250/32": "", // no address 10 past the end of the address space
		"garbage":            "",
	} {
		assert.Equal(t, want, DNSServerIP(rng), rng)
	}
}

func TestIsIPv6(t *testing.T) {
	assert.True(t, IsIPv6CIDR("::/0"))
	assert.True(t, IsIPv6CIDR("fd00::/64"))
	assert.False(t, IsIPv6CIDR("10.0.0.0/8"))
	assert.False(t, IsIPv6CIDR("garbage"))
	assert.True(t, (&ClusterSpec{NonMasqueradeCIDR: "::/0"}).IsIPv6Only())
	assert.False(t, (&ClusterSpec{}).IsIPv6Only())
}
