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
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"k8s.io/kops/pkg/apis/kops"
	"k8s.io/kops/upup/pkg/fi"
	"k8s.io/kops/upup/pkg/fi/cloudup/awstasks"
)

func withProfile(arn interface{}) kops.Unmodeled {
	return kops.Unmodeled{unmodeled(map[string]interface{}{"profile": arn}, "spec", "iam")}
}

// A group that brings its own instance profile gets neither role nor profile of ours, and its
// template names the profile by name, as kops's does; groups of the same role without one still get
// the role kops would make for them.
func TestGroupProfileIsUsed(t *testing.T) {
	ctx := modelContext(t, "", func(c *kops.Cluster, igs []*kops.InstanceGroup) {
		igs[0].Unmodeled = withProfile("arn:aws:iam::123456789012:instance-profile/team/custom-control-plane")
	})
	own := group("nodes-own", kops.RoleNode)
	own.Spec.AdditionalUserData = []kops.UserData{testBootstrap}
	own.Unmodeled = withProfile("arn:aws:iam::123456789012:instance-profile/custom-nodes")
	ctx.InstanceGroups = append(ctx.InstanceGroups, own)
	tasks := build(t, ctx)

	for _, key := range []string{"IAMRole/masters." + testCluster, "IAMInstanceProfile/masters." + testCluster, "IAMRolePolicy/masters." + testCluster} {
		assert.NotContains(t, tasks, key, "the control plane brings its own profile")
	}
	assert.Contains(t, tasks, "IAMRole/nodes."+testCluster, "the group without a profile of its own keeps kops's role")

	cp := tasks["LaunchTemplate/control-plane-us-east-2a.masters."+testCluster].(*awstasks.LaunchTemplate)
	assert.Equal(t, "custom-control-plane", cp.InstanceProfile)
	assert.True(t, cp.ExistingProfile)
	assert.Empty(t, cp.Dependencies(), "nothing of ours to wait for")
	ownTemplate := tasks["LaunchTemplate/nodes-own."+testCluster].(*awstasks.LaunchTemplate)
	assert.Equal(t, "custom-nodes", ownTemplate.InstanceProfile)
	nodes := tasks["LaunchTemplate/nodes."+testCluster].(*awstasks.LaunchTemplate)
	assert.Equal(t, "nodes."+testCluster, nodes.InstanceProfile)
	assert.False(t, nodes.ExistingProfile)
	assert.Equal(t, []fi.TaskKey{{Kind: awstasks.IAMInstanceProfileKind, Name: "nodes." + testCluster}}, nodes.Dependencies())
}

func TestGroupProfileErrorsNameTheField(t *testing.T) {
	const shared = "arn:aws:iam::123456789012:instance-profile/shared"
	tests := []struct {
		name   string
		mutate func(igs []*kops.InstanceGroup)
		want   string
	}{
		{"a role's ARN", func(igs []*kops.InstanceGroup) {
			igs[1].Unmodeled = withProfile("arn:aws:iam::123456789012:role/nodes")
		}, `instance group "nodes": spec.iam.profile: arn:aws:iam::123456789012:role/nodes is not an instance profile's ARN`},
		{"a bare name", func(igs []*kops.InstanceGroup) { igs[1].Unmodeled = withProfile("nodes") },
			`instance group "nodes": spec.iam.profile: nodes is not an instance profile's ARN`},
		{"not a string", func(igs []*kops.InstanceGroup) { igs[0].Unmodeled = withProfile(true) },
			`instance group "control-plane-us-east-2a": spec.iam.profile: true is not an instance profile's ARN`},
		{"one profile for two roles", func(igs []*kops.InstanceGroup) {
			igs[0].Unmodeled, igs[1].Unmodeled = withProfile(shared), withProfile(shared)
		}, `instance group "nodes": spec.iam.profile: ` + shared + ` is also instance group "control-plane-us-east-2a"'s, whose role is ControlPlane, not Node`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ctx := modelContext(t, "", func(c *kops.Cluster, igs []*kops.InstanceGroup) { tc.mutate(igs) })
			_, err := readFacts(ctx)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}
