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
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"k8s.io/kops/pkg/apis/kops"
)

const (
	required     = field.ErrorTypeRequired
	invalid      = field.ErrorTypeInvalid
	notSupported = field.ErrorTypeNotSupported
	duplicate    = field.ErrorTypeDuplicate
	forbidden    = field.ErrorTypeForbidden
	notFound     = field.ErrorTypeNotFound
)

func TestValidateClusterValid(t *testing.T) {
	tests := []struct {
		name   string
		mutate func(c *kops.Cluster)
	}{
		{"minimal defaulted cluster", nil},
		{"IPv6 cluster", func(c *kops.Cluster) { c.Spec.NonMasqueradeCIDR = "::/0" }},
		{"explicit IPv6 service range", func(c *kops.Cluster) {
			c.Spec.NonMasqueradeCIDR = "::/0"
			c.Spec.ServiceClusterIPRange = "fd00:1::/112"
		}},
		{"gossip name and v-prefixed prerelease version", func(c *kops.Cluster) {
			c.Name = "name.k8s.local"
			c.Spec.KubernetesVersion = "v1.35.0-beta.0+build.1"
		}},
		{"custom nonMasqueradeCIDR", func(c *kops.Cluster) { c.Spec.NonMasqueradeCIDR = "10.0.0.0/8" }},
		{"no networkCIDR, subnet anywhere", func(c *kops.Cluster) {
			c.Spec.NetworkCIDR = ""
			c.Spec.Subnets[0].CIDR = "192.168.0.0/24"
		}},
		{"subnet without CIDR", func(c *kops.Cluster) { c.Spec.Subnets[0].CIDR = "" }},
		{"every optional field set", func(c *kops.Cluster) {
			c.Spec.Subnets = append(c.Spec.Subnets,
				kops.ClusterSubnetSpec{Name: "b", Zone: "us-east-2b", CIDR: "172.20.64.0/19", Type: kops.SubnetTypePrivate},
				kops.ClusterSubnetSpec{Name: "c", Zone: "us-east-2c", CIDR: "172.20.96.0/22", Type: kops.SubnetTypeUtility},
				kops.ClusterSubnetSpec{Name: "d", Zone: "us-east-2c", Type: kops.SubnetTypeDualStack},
			)
			c.Spec.KubeDNS = &kops.KubeDNSConfig{
				Provider:            kops.DNSProviderCoreDNS,
				Domain:              "corp.local",
				UpstreamNameservers: []string{"1.1.1.1", "2001:4860:4860::8888"},
				StubDomains: map[string][]string{
					"example.com":   {"10.0.0.1", "10.0.0.2:5353", "[fd00::1]:53", "fd00::2"},
					"Corp.Example.": {"10.0.0.3"},
				},
				CoreDNSImage:   "registry.k8s.io/coredns/coredns:v1.12.0@sha256:" + sha,
				MemoryRequest:  ptr(resource.MustParse("100Mi")),
				MemoryLimit:    ptr(resource.MustParse("100Mi")),
				CPURequest:     ptr(resource.MustParse("0")),
				PodAnnotations: map[string]string{"prometheus.io/scrape": "true"},
				Tolerations: []corev1.Toleration{
					{Operator: corev1.TolerationOpExists},
					{Key: "node-role.kubernetes.io/control-plane", Effect: corev1.TaintEffectNoSchedule},
					{Key: "dedicated", Operator: corev1.TolerationOpEqual, Value: "dns", Effect: corev1.TaintEffectNoExecute, TolerationSeconds: ptr[int64](30)},
				},
			}
			c.Spec.Assets = &kops.AssetsSpec{ContainerRegistry: "registry.example.com:5000/mirror/k8s"}
			c.Spec.Addons = []kops.AddonSpec{{Manifest: "s3://bucket/addons/extra.yaml"}}
			c.Spec.Authorization = &kops.AuthorizationSpec{AlwaysAllow: &kops.AlwaysAllowAuthorizationSpec{}}
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assertErrors(t, ValidateCluster(completed(t, tc.mutate)))
		})
	}
	for _, cloud := range SupportedCloudProviders {
		t.Run("cloud "+cloud, func(t *testing.T) {
			assertErrors(t, ValidateCluster(completed(t, func(c *kops.Cluster) {
				c.Spec.CloudProvider = cloud
				if cloud == "gce" {
					c.Spec.Subnets[0].Zone, c.Spec.Subnets[0].Region = "", "us-east2"
				}
			})))
		})
	}
}

const sha = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"

func TestValidateClusterErrors(t *testing.T) {
	tests := []struct {
		name   string
		mutate func(c *kops.Cluster)
		want   []want
	}{
		{"name missing", func(c *kops.Cluster) { c.Name = "" },
			[]want{{required, "metadata.name", "mycluster.example.com"}}},
		{"name not fully qualified", func(c *kops.Cluster) { c.Name = "mycluster" },
			[]want{{invalid, "metadata.name", "fully qualified"}}},
		{"name not a DNS subdomain", func(c *kops.Cluster) { c.Name = "My_Cluster.example.com" },
			[]want{{invalid, "metadata.name", "RFC 1123"}}},
		{"version missing", func(c *kops.Cluster) { c.Spec.KubernetesVersion = "" },
			[]want{{required, "spec.kubernetesVersion", ""}}},
		{"version not semantic", func(c *kops.Cluster) { c.Spec.KubernetesVersion = "1.34" },
			[]want{{invalid, "spec.kubernetesVersion", "semantic version"}}},
		{"version with garbage", func(c *kops.Cluster) { c.Spec.KubernetesVersion = "latest" },
			[]want{{invalid, "spec.kubernetesVersion", ""}}},
		{"cloud missing", func(c *kops.Cluster) { c.Spec.CloudProvider = "" },
			[]want{{required, "spec.cloudProvider", "aws"}}},
		{"cloud unknown", func(c *kops.Cluster) { c.Spec.CloudProvider = "AWS" },
			[]want{{notSupported, "spec.cloudProvider", `"gce"`}}},
		{"addon without manifest", func(c *kops.Cluster) {
			c.Spec.Addons = []kops.AddonSpec{{Manifest: "s3://x/y.yaml"}, {}}
		}, []want{{required, "spec.addons[1].manifest", ""}}},
		{"rbac and alwaysAllow", func(c *kops.Cluster) {
			c.Spec.Authorization = &kops.AuthorizationSpec{RBAC: &kops.RBACAuthorizationSpec{}, AlwaysAllow: &kops.AlwaysAllowAuthorizationSpec{}}
		}, []want{{forbidden, "spec.authorization", "only one of rbac and alwaysAllow"}}},
		{"registry with scheme", func(c *kops.Cluster) {
			c.Spec.Assets = &kops.AssetsSpec{ContainerRegistry: "https://registry.example.com"}
		}, []want{{invalid, "spec.assets.containerRegistry", "scheme"}}},
		{"proxy with bad port", func(c *kops.Cluster) {
			c.Spec.Assets = &kops.AssetsSpec{ContainerProxy: "proxy.example.com:99999"}
		}, []want{{invalid, "spec.assets.containerProxy", "port"}}},
		{"registry and proxy together", func(c *kops.Cluster) {
			c.Spec.Assets = &kops.AssetsSpec{ContainerRegistry: "registry.example.com", ContainerProxy: "proxy.example.com"}
		}, []want{{forbidden, "spec.assets.containerProxy", "spec.assets.containerRegistry"}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assertErrors(t, ValidateCluster(completed(t, tc.mutate)), tc.want...)
		})
	}
}

// A cluster that skipped CompleteCluster has no nonMasqueradeCIDR; that is the only complaint, the
// other defaulted fields being validated only when set.
func TestValidateClusterUncompleted(t *testing.T) {
	assertErrors(t, ValidateCluster(rawCluster()), want{required, "spec.nonMasqueradeCIDR", ""})
}

func TestValidateClusterReportsEverythingAtOnce(t *testing.T) {
	c := completed(t, func(c *kops.Cluster) {
		c.Name = "mycluster"
		c.Spec.KubernetesVersion = "one"
		c.Spec.CloudProvider = "vmware"
		c.Spec.NetworkCIDR = "172.20.0.0/16"
		c.Spec.Subnets = []kops.ClusterSubnetSpec{
			{Name: "a", Zone: "us-east-2a", CIDR: "10.0.0.0/24", Type: "Public"},
			{Name: "a", CIDR: "172.20.0.0/33", Type: "public"},
		}
		c.Spec.KubeDNS = &kops.KubeDNSConfig{Provider: "CoreDns", ServerIP: "1.2.3.4", Domain: "bad_domain"}
		c.Spec.Assets = &kops.AssetsSpec{ContainerRegistry: "http://r", ContainerProxy: "p"}
		c.Spec.Addons = []kops.AddonSpec{{}}
		c.Spec.Authorization = &kops.AuthorizationSpec{RBAC: &kops.RBACAuthorizationSpec{}, AlwaysAllow: &kops.AlwaysAllowAuthorizationSpec{}}
	})
	errs := ValidateCluster(c)
	require.NotEmpty(t, errs)
	assertErrors(t, errs,
		want{invalid, "metadata.name", ""},
		want{invalid, "spec.kubernetesVersion", ""},
		want{notSupported, "spec.cloudProvider", ""},
		want{invalid, "spec.subnets[0].cidr", ""},
		want{duplicate, "spec.subnets[1].name", ""},
		want{invalid, "spec.subnets[1].cidr", ""},
		want{notSupported, "spec.subnets[1].type", ""},
		want{notSupported, "spec.kubeDNS.provider", ""},
		want{invalid, "spec.kubeDNS.serverIP", ""},
		want{invalid, "spec.kubeDNS.domain", ""},
		want{invalid, "spec.assets.containerRegistry", ""},
		// "p" would be read as a Docker Hub namespace (the remapper refused it already).
		want{invalid, "spec.assets.containerProxy", "Docker Hub namespace"},
		want{forbidden, "spec.assets.containerProxy", ""},
		want{required, "spec.addons[0].manifest", ""},
		want{forbidden, "spec.authorization", ""},
	)
}

func TestSemverPattern(t *testing.T) {
	for _, v := range []string{"1.34.2", "v1.34.2", "0.0.0", "1.35.0-alpha.1", "1.35.0-rc.0+abc.1", "1.2.3+meta"} {
		assert.True(t, semverRE().MatchString(v), v)
	}
	for _, v := range []string{"1.34", "v", "1.34.2.1", "01.2.3", "1.2.3-", "1.2.3-01", "V1.2.3", " 1.2.3", "1.2.3+"} {
		assert.False(t, semverRE().MatchString(v), v)
	}
}
