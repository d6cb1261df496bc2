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

package awsmodel

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"k8s.io/kops/pkg/apis/kops"
	"k8s.io/kops/pkg/model/nodesetup"
	"k8s.io/kops/upup/pkg/fi"
	"k8s.io/kops/upup/pkg/fi/cloudup/awstasks"
)

func TestTasksAndGraph(t *testing.T) {
	ctx := modelContext(t, "", nil)
	tasks := build(t, ctx)
	var keys []string
	for k := range tasks {
		keys = append(keys, k)
	}
	assert.ElementsMatch(t, []string{
		"IAMRole/masters.a.example.com", "IAMInstanceProfile/masters.a.example.com", "IAMRolePolicy/masters.a.example.com",
		"IAMRole/nodes.a.example.com", "IAMInstanceProfile/nodes.a.example.com",
		"IAMRole/bastions.a.example.com", "IAMInstanceProfile/bastions.a.example.com",
		"IAMRolePolicy/nodes.a.example.com",
		"LaunchTemplate/control-plane-us-east-2a.masters.a.example.com", "LaunchTemplate/nodes.a.example.com",
		"LaunchTemplate/bastions.a.example.com",
	}, keys, "bastions are granted nothing, so they have no policy")

	list := make([]fi.Task, 0, len(tasks))
	for _, task := range tasks {
		list = append(list, task)
	}
	_, err := fi.BuildGraph(list)
	require.NoError(t, err, "every dependency is a task of the model")

	lt := tasks["LaunchTemplate/nodes.a.example.com"].(*awstasks.LaunchTemplate)
	assert.Equal(t, "nodes.a.example.com", lt.InstanceProfile)
	assert.Equal(t, "ami-0123456789abcdef0", lt.ImageID)
	assert.Equal(t, "t3.medium", lt.InstanceType)
	assert.Equal(t, int64(128), lt.RootVolume.SizeGB)
	assert.True(t, lt.RootVolume.Encrypted)
	assert.Equal(t, map[string]string{
		"KubernetesCluster": "a.example.com", "kubernetes.io/cluster/a.example.com": "owned", "kops.k8s.io/instancegroup": "nodes",
	}, lt.Tags)
	want, err := nodesetup.UserData(ctx.Cluster, ctx.InstanceGroups[1], ctx.Nodeup)
	require.NoError(t, err)
	assert.Equal(t, want, lt.UserData, "user data comes from nodesetup")
	cp := tasks["LaunchTemplate/control-plane-us-east-2a.masters.a.example.com"].(*awstasks.LaunchTemplate)
	assert.Equal(t, int64(64), cp.RootVolume.SizeGB)
	assert.Equal(t, "masters.a.example.com", cp.InstanceProfile)
}

func TestMetadataOptionsFollowTheMode(t *testing.T) {
	hop := func(n int64) func(c *kops.Cluster, igs []*kops.InstanceGroup) {
		return func(c *kops.Cluster, igs []*kops.InstanceGroup) {
			igs[1].Spec.InstanceMetadata = &kops.InstanceMetadataSpec{HTTPPutResponseHopLimit: &n}
		}
	}
	tests := []struct {
		name   string
		mode   string
		mutate func(c *kops.Cluster, igs []*kops.InstanceGroup)
		want   awstasks.MetadataOptions
	}{
		{"default Block", "", nil, awstasks.MetadataOptions{HTTPTokens: "required", HopLimit: 1}},
		{"Forward", kops.PodMetadataAccessForward, nil, awstasks.MetadataOptions{HTTPTokens: "required", HopLimit: 1}},
		{"Allow lets pods get a token", kops.PodMetadataAccessAllow, nil, awstasks.MetadataOptions{HTTPTokens: "required", HopLimit: 2}},
		{"Allow with the group's hop limit", kops.PodMetadataAccessAllow, hop(3), awstasks.MetadataOptions{HTTPTokens: "required", HopLimit: 3}},
		{"Block with the group's explicit 1", kops.PodMetadataAccessBlock, hop(1), awstasks.MetadataOptions{HTTPTokens: "required", HopLimit: 1}},
		{"IPv6 cluster", "", func(c *kops.Cluster, _ []*kops.InstanceGroup) { c.Spec.NonMasqueradeCIDR = "::/0" },
			awstasks.MetadataOptions{HTTPTokens: "required", HopLimit: 1, IPv6: true}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tasks := build(t, modelContext(t, tc.mode, tc.mutate))
			lt := tasks["LaunchTemplate/nodes.a.example.com"].(*awstasks.LaunchTemplate)
			assert.Equal(t, tc.want, lt.Metadata)
		})
	}
}

func TestMissingImageAndMachineTypeShown(t *testing.T) {
	ctx := modelContext(t, "", func(_ *kops.Cluster, igs []*kops.InstanceGroup) {
		igs[1].Spec.Image, igs[1].Spec.MachineType = "", ""
	})
	lt := build(t, ctx)["LaunchTemplate/nodes.a.example.com"]
	require.NotNil(t, lt)
	change, err := lt.Plan(context.Background(), &fi.Context{})
	require.NoError(t, err)
	fields := map[string]string{}
	for _, f := range change.Fields {
		fields[f.Name] = f.New
	}
	assert.Contains(t, fields["ImageID"], "spec.image")
	assert.Contains(t, fields["InstanceType"], "spec.machineType")
}

func TestOnlyAWS(t *testing.T) {
	ctx := modelContext(t, "", nil)
	require.Len(t, Builders(ctx), 2)
	ctx.Cluster.Spec.CloudProvider = "gce"
	assert.Empty(t, Builders(ctx))
}

// BenchmarkBuild200 builds the AWS model of a cluster with 200 node groups (plus the three of
// modelContext); compare with BenchmarkBuild20 to see it grow linearly.
func BenchmarkBuild200(b *testing.B) { benchmarkBuild(b, 200) }

func BenchmarkBuild20(b *testing.B) { benchmarkBuild(b, 20) }

func benchmarkBuild(b *testing.B, n int) {
	ctx := modelContext(b, "", nil)
	ctx.InstanceGroups = manyGroups(n)(ctx.Cluster, ctx.InstanceGroups)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		c := &fi.ModelBuilderContext{}
		for _, builder := range Builders(ctx) {
			if err := builder.Build(c); err != nil {
				b.Fatal(err)
			}
		}
		if _, err := fi.BuildGraph(c.Tasks()); err != nil {
			b.Fatal(err)
		}
	}
}

// A group that runs kubelet gets a launch template only with a bootstrap: ours (control plane,
// nodeup source given) or its own (spec.additionalUserData). Without one it gets none, and a
// warning says why; bastions boot from their image either way.
func TestNoTemplateWithoutBootstrap(t *testing.T) {
	for _, tc := range []struct {
		name      string
		nodeup    bool
		ownParts  bool
		templates []string
		warned    []string
	}{
		{"nodeup and own parts", true, true, []string{"bastions", "control-plane-us-east-2a", "nodes"}, nil},
		{"nodeup only", true, false, []string{"bastions", "control-plane-us-east-2a"}, []string{"nodes"}},
		{"own parts only", false, true, []string{"bastions", "nodes"}, []string{"control-plane-us-east-2a"}},
		{"neither", false, false, []string{"bastions"}, []string{"control-plane-us-east-2a", "nodes"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := modelContext(t, "", func(c *kops.Cluster, igs []*kops.InstanceGroup) {
				if !tc.ownParts {
					igs[1].Spec.AdditionalUserData = nil
				}
			})
			if !tc.nodeup {
				ctx.Nodeup = nil
			}
			var got []string
			for _, task := range build(t, ctx) {
				if lt, ok := task.(*awstasks.LaunchTemplate); ok {
					got = append(got, lt.Tags[TagInstanceGroup])
				}
			}
			assert.ElementsMatch(t, tc.templates, got)
			all, err := Warnings(ctx)
			require.NoError(t, err)
			var warnings []string
			for _, w := range all {
				if strings.HasPrefix(w, "instance group ") {
					warnings = append(warnings, w)
				}
			}
			require.Len(t, warnings, len(tc.warned), "%q", warnings)
			for i, g := range tc.warned {
				assert.Contains(t, warnings[i], fmt.Sprintf("instance group %q: no launch template", g))
			}
		})
	}
}
