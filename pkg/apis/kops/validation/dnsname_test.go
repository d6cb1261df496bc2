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
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"k8s.io/kops/pkg/apis/kops"
)

// label64 is one character longer than a DNS label may be.
var label64 = strings.Repeat("a", 64)

func TestDNSNameProblems(t *testing.T) {
	for _, name := range []string{"a", "cluster.local", strings.Repeat("a", 63) + ".example.com", "x." + strings.Repeat("b", 63)} {
		assert.Empty(t, DNSNameProblems(name), name)
	}
	for _, name := range []string{"", "Upper.example.com", "a..b", label64, label64 + ".example.com", "x." + label64 + ".k8s.local",
		strings.Repeat("abcdefgh.", 30) + "com"} {
		assert.NotEmpty(t, DNSNameProblems(name), name)
	}
	assert.Equal(t, []string{`label 2 ("aaaaaaaaaaaaaaaa...") has 64 characters: a DNS label has at most 63`},
		DNSNameProblems("x."+label64+".k8s.local"))
}

// Every name that is a DNS name refuses a label longer than 63 characters.
func TestDNSLabelLengthEverywhere(t *testing.T) {
	const msg = "a DNS label has at most 63"
	tests := []struct {
		name   string
		mutate func(c *kops.Cluster)
		want   want
	}{
		{"cluster name", func(c *kops.Cluster) { c.Name = label64 + ".example.com" },
			want{invalid, "metadata.name", msg}},
		{"kubeDNS.domain", func(c *kops.Cluster) { c.Spec.KubeDNS = &kops.KubeDNSConfig{Domain: "corp." + label64} },
			want{invalid, "spec.kubeDNS.domain", msg}},
		{"stub domain", func(c *kops.Cluster) {
			c.Spec.KubeDNS = &kops.KubeDNSConfig{StubDomains: map[string][]string{label64 + ".example.com.": {"10.0.0.1"}}}
		}, want{invalid, "spec.kubeDNS.stubDomains[" + label64 + ".example.com.]", msg}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assertErrors(t, ValidateCluster(completed(t, tc.mutate)), tc.want)
		})
	}

	t.Run("instance group name", func(t *testing.T) {
		assertErrors(t, ValidateInstanceGroup(ig("nodes-"+label64, kops.RoleNode), completed(t, nil)),
			want{invalid, "metadata.name", msg})
	})
	t.Run("cluster a group or key names", func(t *testing.T) {
		path := field.NewPath("metadata", "labels").Key(kops.LabelClusterName)
		assertErrors(t, ValidateClusterReference(label64+".k8s.local", path), want{invalid, path.String(), msg})
	})
}
