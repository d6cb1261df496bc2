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

	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"k8s.io/kops/pkg/apis/kops"
)

func TestValidateInstanceGroup(t *testing.T) {
	tests := []struct {
		name   string
		mutate func(g *kops.InstanceGroup)
		want   []want
	}{
		{"valid node group", nil, nil},
		{"every role is accepted", func(g *kops.InstanceGroup) { g.Spec.Role = kops.RoleBastion }, nil},
		{"sizes unset", func(g *kops.InstanceGroup) { g.Spec.MinSize, g.Spec.MaxSize = nil, nil }, nil},
		{"instance metadata set", func(g *kops.InstanceGroup) {
			g.Spec.InstanceMetadata = &kops.InstanceMetadataSpec{HTTPTokens: ptr("required"), HTTPPutResponseHopLimit: ptr[int64](1)}
		}, nil},
		{"name missing", func(g *kops.InstanceGroup) { g.Name = "" },
			[]want{{required, "metadata.name", ""}}},
		{"name not a DNS subdomain", func(g *kops.InstanceGroup) { g.Name = "Nodes_A" },
			[]want{{invalid, "metadata.name", "RFC 1123"}}},
		{"cluster label missing", func(g *kops.InstanceGroup) { g.Labels = nil },
			[]want{{required, "metadata.labels[kops.k8s.io/cluster]", ""}}},
		{"cluster label empty", func(g *kops.InstanceGroup) { g.Labels[kops.LabelClusterName] = "" },
			[]want{{required, "metadata.labels[kops.k8s.io/cluster]", ""}}},
		{"cluster label names another cluster", func(g *kops.InstanceGroup) { g.Labels[kops.LabelClusterName] = "other.example.com" },
			[]want{{invalid, "metadata.labels[kops.k8s.io/cluster]", clusterName}}},
		{"role missing", func(g *kops.InstanceGroup) { g.Spec.Role = "" },
			[]want{{required, "spec.role", "ControlPlane"}}},
		{"role unknown", func(g *kops.InstanceGroup) { g.Spec.Role = "Worker" },
			[]want{{notSupported, "spec.role", `"Master"`}}},
		{"minSize negative", func(g *kops.InstanceGroup) { g.Spec.MinSize = ptr[int32](-1) },
			[]want{{invalid, "spec.minSize", "negative"}}},
		{"maxSize negative", func(g *kops.InstanceGroup) { g.Spec.MinSize, g.Spec.MaxSize = nil, ptr[int32](-1) },
			[]want{{invalid, "spec.maxSize", "negative"}}},
		{"minSize above maxSize", func(g *kops.InstanceGroup) { g.Spec.MinSize, g.Spec.MaxSize = ptr[int32](3), ptr[int32](2) },
			[]want{{invalid, "spec.minSize", "spec.maxSize"}}},
		{"subnets missing", func(g *kops.InstanceGroup) { g.Spec.Subnets = nil },
			[]want{{required, "spec.subnets", ""}}},
		{"subnet not in cluster", func(g *kops.InstanceGroup) { g.Spec.Subnets = []string{"us-east-2a", "us-east-2z"} },
			[]want{{notFound, "spec.subnets[1]", "us-east-2z"}}},
		{"subnet listed twice", func(g *kops.InstanceGroup) { g.Spec.Subnets = []string{"us-east-2a", "us-east-2a"} },
			[]want{{duplicate, "spec.subnets[1]", ""}}},
		{"httpTokens unknown", func(g *kops.InstanceGroup) {
			g.Spec.InstanceMetadata = &kops.InstanceMetadataSpec{HTTPTokens: ptr("sometimes")}
		}, []want{{notSupported, "spec.instanceMetadata.httpTokens", `"optional"`}}},
		{"hop limit zero", func(g *kops.InstanceGroup) {
			g.Spec.InstanceMetadata = &kops.InstanceMetadataSpec{HTTPPutResponseHopLimit: ptr[int64](0)}
		}, []want{{invalid, "spec.instanceMetadata.httpPutResponseHopLimit", "from 1 to 64"}}},
		{"hop limit too large", func(g *kops.InstanceGroup) {
			g.Spec.InstanceMetadata = &kops.InstanceMetadataSpec{HTTPPutResponseHopLimit: ptr[int64](65)}
		}, []want{{invalid, "spec.instanceMetadata.httpPutResponseHopLimit", "from 1 to 64"}}},
		{"additional user data as kops takes it", func(g *kops.InstanceGroup) {
			g.Spec.AdditionalUserData = []kops.UserData{
				{Name: "bootstrap.sh", Type: "text/x-shellscript", Content: "#!/bin/sh\n"},
				{Name: "extra.cfg", Type: "text/cloud-config", Content: "#cloud-config\n"},
			}
		}, nil},
		{"additional user data parts incomplete", func(g *kops.InstanceGroup) {
			g.Spec.AdditionalUserData = []kops.UserData{{Type: "text/x-shellscript"}}
		}, []want{
			{required, "spec.additionalUserData[0].name", "file name"},
			{required, "spec.additionalUserData[0].content", ""},
		}},
		{"additional user data of a type cloud-init does not read", func(g *kops.InstanceGroup) {
			g.Spec.AdditionalUserData = []kops.UserData{{Name: "a", Type: "application/octet-stream", Content: "x"}}
		}, []want{{notSupported, "spec.additionalUserData[0].type", "text/x-shellscript"}}},
		{"additional user data names unique", func(g *kops.InstanceGroup) {
			part := kops.UserData{Name: "a.sh", Type: "text/x-shellscript", Content: "x"}
			g.Spec.AdditionalUserData = []kops.UserData{part, part}
		}, []want{{duplicate, "spec.additionalUserData[1].name", ""}}},
		// The name is written into a header line: a quote, a line break or a path must not get there.
		{"additional user data names that would break the header", func(g *kops.InstanceGroup) {
			g.Spec.AdditionalUserData = []kops.UserData{
				{Name: `a"b`, Type: "text/x-shellscript", Content: "x"},
				{Name: "a\r\nContent-Type: text/x-shellscript", Type: "text/x-shellscript", Content: "x"},
				{Name: "../etc/x", Type: "text/x-shellscript", Content: "x"},
			}
		}, []want{
			{invalid, "spec.additionalUserData[0].name", "file name"},
			{invalid, "spec.additionalUserData[1].name", "file name"},
			{invalid, "spec.additionalUserData[2].name", "file name"},
		}},
		{"everything wrong at once", func(g *kops.InstanceGroup) {
			g.Name = ""
			g.Labels = nil
			g.Spec = kops.InstanceGroupSpec{
				Role: "worker", MinSize: ptr[int32](-2), MaxSize: ptr[int32](-3),
				InstanceMetadata: &kops.InstanceMetadataSpec{HTTPTokens: ptr(""), HTTPPutResponseHopLimit: ptr[int64](-1)},
			}
		}, []want{
			{required, "metadata.name", ""},
			{required, "metadata.labels[kops.k8s.io/cluster]", ""},
			{notSupported, "spec.role", ""},
			{invalid, "spec.minSize", "negative"},
			{invalid, "spec.maxSize", "negative"},
			{invalid, "spec.minSize", "less than or equal"},
			{required, "spec.subnets", ""},
			{notSupported, "spec.instanceMetadata.httpTokens", ""},
			{invalid, "spec.instanceMetadata.httpPutResponseHopLimit", ""},
		}},
	}
	cluster := completed(t, nil)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := ig("nodes", kops.RoleNode)
			if tc.mutate != nil {
				tc.mutate(g)
			}
			assertErrors(t, ValidateInstanceGroup(g, cluster), tc.want...)
		})
	}
}

// Without a cluster, the checks that need one are skipped but the rest still run.
func TestValidateInstanceGroupWithoutCluster(t *testing.T) {
	g := ig("nodes", kops.RoleNode)
	g.Labels[kops.LabelClusterName] = "any.example.com"
	g.Spec.Subnets = []string{"anything"}
	assertErrors(t, ValidateInstanceGroup(g, nil))

	g.Spec.Subnets = nil
	assertErrors(t, ValidateInstanceGroup(g, nil), want{required, "spec.subnets", ""})
}

func TestValidateClusterAndInstanceGroups(t *testing.T) {
	cp := func() *kops.InstanceGroup { return ig("control-plane-us-east-2a", kops.RoleControlPlane) }
	nodes := func() *kops.InstanceGroup { return ig("nodes", kops.RoleNode) }
	tests := []struct {
		name    string
		mutate  func(c *kops.Cluster)
		groups  func() []*kops.InstanceGroup
		wantErr []want
	}{
		{"valid", nil, func() []*kops.InstanceGroup { return []*kops.InstanceGroup{cp(), nodes()} }, nil},
		{"valid IPv6", func(c *kops.Cluster) { c.Spec.NonMasqueradeCIDR = "::/0" },
			func() []*kops.InstanceGroup { return []*kops.InstanceGroup{cp(), nodes()} }, nil},
		{"Master counts as control plane", nil, func() []*kops.InstanceGroup {
			return []*kops.InstanceGroup{ig("master-us-east-2a", kops.RoleMaster), nodes()}
		}, nil},
		{"no control plane", nil, func() []*kops.InstanceGroup {
			return []*kops.InstanceGroup{nodes(), ig("bastions", kops.RoleBastion)}
		}, []want{{required, "instanceGroups", "ControlPlane"}}},
		{"no nodes", nil, func() []*kops.InstanceGroup {
			return []*kops.InstanceGroup{cp(), ig("api", kops.RoleAPIServer)}
		}, []want{{required, "instanceGroups", "role Node"}}},
		{"no groups", nil, func() []*kops.InstanceGroup { return nil }, []want{
			{required, "instanceGroups", "ControlPlane"},
			{required, "instanceGroups", "role Node"},
		}},
		{"duplicate names", nil, func() []*kops.InstanceGroup {
			return []*kops.InstanceGroup{cp(), nodes(), nodes()}
		}, []want{{duplicate, "instanceGroups[nodes].metadata.name", ""}}},
		{"group errors are placed under the group", nil, func() []*kops.InstanceGroup {
			bad := nodes()
			bad.Spec.Subnets = []string{"nowhere"}
			return []*kops.InstanceGroup{cp(), nodes(), bad}
		}, []want{
			{duplicate, "instanceGroups[nodes].metadata.name", ""},
			{notFound, "instanceGroups[nodes].spec.subnets[0]", ""},
		}},
		{"unnamed group is placed by index", nil, func() []*kops.InstanceGroup {
			unnamed := nodes()
			unnamed.Name = ""
			return []*kops.InstanceGroup{cp(), nodes(), unnamed}
		}, []want{{required, "instanceGroups[2].metadata.name", ""}}},
		{"nil group", nil, func() []*kops.InstanceGroup {
			return []*kops.InstanceGroup{nil, cp(), nodes()}
		}, []want{{required, "instanceGroups[0]", "nil"}}},
		{"cluster and group errors together", func(c *kops.Cluster) { c.Spec.CloudProvider = "" }, func() []*kops.InstanceGroup {
			bad := cp()
			bad.Labels[kops.LabelClusterName] = "other.example.com"
			return []*kops.InstanceGroup{bad}
		}, []want{
			{required, "spec.cloudProvider", ""},
			{invalid, "instanceGroups[control-plane-us-east-2a].metadata.labels[kops.k8s.io/cluster]", ""},
			{required, "instanceGroups", "role Node"},
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := completed(t, tc.mutate)
			groups := tc.groups()
			errs := ValidateClusterAndInstanceGroups(c, groups)
			assertErrors(t, errs, tc.wantErr...)
		})
	}
}

// The combined check reports the same problems as the single-group check, only re-rooted.
func TestCombinedMatchesSingle(t *testing.T) {
	c := completed(t, nil)
	bad := ig("nodes", kops.RoleNode)
	bad.Spec.Role = "worker"
	bad.Spec.MinSize = ptr[int32](-1)

	single := ValidateInstanceGroup(bad, c)
	require.Len(t, single, 2)
	combined := ValidateClusterAndInstanceGroups(c, []*kops.InstanceGroup{ig("cp", kops.RoleControlPlane), bad})
	var rerooted []want
	for _, e := range single {
		rerooted = append(rerooted, want{typ: e.Type, path: "instanceGroups[nodes]." + e.Field})
	}
	rerooted = append(rerooted, want{typ: field.ErrorTypeRequired, path: "instanceGroups"}) // no Node group left
	assertErrors(t, combined, rerooted...)
}
