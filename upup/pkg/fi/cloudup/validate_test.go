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

package cloudup

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"k8s.io/kops/pkg/apis/kops"
	"k8s.io/kops/pkg/kopscodecs"
)

// checkFile decodes a kops-shaped file and checks each of its clusters with the groups that name
// it, returning the located problems ("" when every cluster is valid).
func checkFile(t *testing.T, name string, data []byte) string {
	t.Helper()
	objs, _, err := kopscodecs.Decode(name, data, false)
	require.NoError(t, err)
	groups := map[string][]*kopscodecs.Object{}
	for _, o := range objs {
		if o.InstanceGroup != nil {
			owner := o.InstanceGroup.Labels[kops.LabelClusterName]
			groups[owner] = append(groups[owner], o)
		}
	}
	var problems []string
	for _, o := range objs {
		if o.Cluster == nil {
			continue
		}
		docs := groups[o.Cluster.Name]
		igs := make([]*kops.InstanceGroup, 0, len(docs))
		for _, d := range docs {
			igs = append(igs, d.InstanceGroup)
		}
		if err := Check(o.Cluster, igs, "memfs://test", len(docs) > 0).Err(o.Cluster.Name, o, docs); err != nil {
			problems = append(problems, err.Error())
		}
	}
	return strings.Join(problems, "\n")
}

// kopsSpecs holds the repository's kops-shaped specs (tests/kops-specs/README.md).
const kopsSpecs = "../../../../tests/kops-specs"

// The kops-shaped specs load as they are (TestKopsSpecsLoad in cmd/kops runs every command on
// them); changed the way kops refuses too, they fail with the file, line and field path.
func TestKopsShapedSpecsRefused(t *testing.T) {
	cases := []struct {
		file, old, new string
		want           string
	}{
		{"gce-regional.yaml", "    region: europe-west4\n", "    region: europe-west4\n    zone: europe-west4-a\n",
			`gce-regional.yaml:30: document 1 (Cluster "regional.example.com"): spec.subnets[0].zone: Invalid value: "europe-west4-a": must not be set: GCE subnets are regional`},
		{"amazonvpc-additional-cidrs.yaml", "  - cidr: 10.21.64.0/18\n", "  - cidr: 10.22.64.0/18\n",
			`amazonvpc-additional-cidrs.yaml:30: document 1 (Cluster "vpc-native.example.com"): spec.subnets[1].cidr: Invalid value: "10.22.64.0/18": must lie inside spec.networkCIDR "10.20.0.0/16" or one of spec.additionalNetworkCIDRs`},
		{"amazonvpc-additional-cidrs.yaml", "    amazonvpc:\n      env:\n", "    calico:\n      env:\n",
			`amazonvpc-additional-cidrs.yaml:17: document 1 (Cluster "vpc-native.example.com"): spec.networkCIDR: Invalid value: "10.20.0.0/16": must not overlap spec.nonMasqueradeCIDR`},
		{"cilium-eni-ipv6.yaml", "      ipam: eni\n", "      ipam: kubernetes\n",
			`cilium-eni-ipv6.yaml:13: document 1 (Cluster "eni.example.com"): spec.networkCIDR: Invalid value: "172.20.0.0/16": must not overlap`},
		{"cilium-eni-ipv6.yaml", "  nonMasqueradeCIDR: ::/0\n", "  nonMasqueradeCIDR: fd00::/56\n",
			`cilium-eni-ipv6.yaml:35: document 2 (Cluster "v6.example.com"): spec.nonMasqueradeCIDR: Forbidden: an IPv6 cluster must have a nonMasqueradeCIDR of "::/0"`},
		{"aws-shared-subnets.yaml", "  - id: subnet-0123456789abcdef1\n    name:", "  - name:",
			`aws-shared-subnets.yaml:29: document 1 (Cluster "shared.example.com"): spec.subnets[1].zone: Required value`},
		{"aws-shared-subnets.yaml", "    zone: us-west-2-lax-1a\n", "    zone: us-east-1-bos-1a\n",
			`aws-shared-subnets.yaml:35: document 1 (Cluster "shared.example.com"): spec.subnets[2].zone: Invalid value: "us-east-1-bos-1a": region us-east-1 differs from region us-west-2 of spec.subnets[0].zone "us-west-2a": a cluster lies in one region`},
		{"aws-shared-subnets.yaml", "  kubernetesVersion: v1.35.0\n", "  kubernetesVersion: v1.29.15\n",
			`aws-shared-subnets.yaml:16: document 1 (Cluster "shared.example.com"): spec.kubernetesVersion: Invalid value: "v1.29.15": is not supported: this build supports Kubernetes 1.30 to 1.36`},
	}
	for _, tc := range cases {
		t.Run(tc.file+" "+strings.TrimSpace(tc.new), func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join(kopsSpecs, tc.file))
			require.NoError(t, err)
			changed := strings.Replace(string(data), tc.old, tc.new, 1)
			require.NotEqual(t, string(data), changed, "the change applies")
			assert.Contains(t, checkFile(t, tc.file, []byte(changed)), tc.want)
		})
	}
}

// Check holds every way in to the Kubernetes minors this build supports, whatever patch or
// pre-release, with or without a leading v; a version that does not parse is validation's to report.
func TestCheckKubernetesVersion(t *testing.T) {
	cluster := func(version string) *kops.Cluster {
		c, _, err := NewCluster(NewClusterOptions{Name: "v.example.com", Zones: []string{"us-east-2a"}, KubernetesVersion: version})
		require.NoError(t, err)
		return c
	}
	for _, v := range []string{"1.30.0", "v1.30.0-rc.1", "1.34.2", "v1.35.0", "v1.35.0-beta.0+build.1", "1.36.99"} {
		t.Run(v, func(t *testing.T) {
			assert.Empty(t, Check(cluster(v), nil, "memfs://test", false).ClusterErrors)
		})
	}
	for _, v := range []string{"1.20.0", "1.29.15", "v1.2.3", "1.37.0", "1.37.0-alpha.1", "99.0.0", "0.30.0"} {
		t.Run(v, func(t *testing.T) {
			errs := Check(cluster(v), nil, "memfs://test", false).ClusterErrors
			require.Len(t, errs, 1, "%v", errs)
			assert.Equal(t, "spec.kubernetesVersion", errs[0].Field)
			assert.Equal(t, `spec.kubernetesVersion: Invalid value: "`+v+`": is not supported: this build supports Kubernetes 1.30 to 1.36`, errs[0].Error())
		})
	}
	t.Run("not a version", func(t *testing.T) {
		errs := Check(cluster("latest"), nil, "memfs://test", false).ClusterErrors
		require.Len(t, errs, 1, "one error, not one per check")
		assert.Contains(t, errs[0].Error(), `spec.kubernetesVersion: Invalid value: "latest": must be a semantic version`)
	})
}
