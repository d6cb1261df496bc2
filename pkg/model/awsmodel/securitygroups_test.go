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
	"k8s.io/kops/upup/pkg/fi/cloudup/awstasks"
)

func unmodeled(value interface{}, keys ...string) kops.UnmodeledField {
	var p kops.FieldPath
	for _, k := range keys {
		p = append(p, kops.PathElement{Key: k})
	}
	return kops.UnmodeledField{Path: p, Value: value}
}

// Every template names the security groups kops gives the group's machines: without them a
// machine would get the VPC's default group, and kops's rules (nodes to the API server, ...) would
// not apply to it.
func TestLaunchTemplatesNameKopsSecurityGroups(t *testing.T) {
	kopsGroup := func(name string) awstasks.SecurityGroup {
		return awstasks.SecurityGroup{Name: name + "." + testCluster, Cluster: testCluster}
	}
	for _, tc := range []struct {
		name    string
		mutate  func(c *kops.Cluster, igs []*kops.InstanceGroup)
		group   string
		want    []awstasks.SecurityGroup
		wantErr string
	}{
		{"control plane", nil, "control-plane-us-east-2a", []awstasks.SecurityGroup{kopsGroup("masters")}, ""},
		{"nodes", nil, "nodes", []awstasks.SecurityGroup{kopsGroup("nodes")}, ""},
		{"bastions", nil, "bastions", []awstasks.SecurityGroup{kopsGroup("bastion")}, ""},
		{"override and additional", func(c *kops.Cluster, igs []*kops.InstanceGroup) {
			igs[1].Unmodeled = kops.Unmodeled{
				unmodeled("sg-override", "spec", "securityGroupOverride"),
				unmodeled([]interface{}{"sg-1", "sg-2"}, "spec", "additionalSecurityGroups"),
			}
		}, "nodes", []awstasks.SecurityGroup{{ID: "sg-override"}, {ID: "sg-1"}, {ID: "sg-2"}}, ""},
		{"network load balancer's groups on the control plane", func(c *kops.Cluster, igs []*kops.InstanceGroup) {
			c.Unmodeled = kops.Unmodeled{unmodeled(map[string]interface{}{"class": "Network", "additionalSecurityGroups": []interface{}{"sg-nlb"}}, "spec", "api", "loadBalancer")}
		}, "control-plane-us-east-2a", []awstasks.SecurityGroup{kopsGroup("masters"), {ID: "sg-nlb"}}, ""},
		{"not on the nodes", func(c *kops.Cluster, igs []*kops.InstanceGroup) {
			c.Unmodeled = kops.Unmodeled{unmodeled(map[string]interface{}{"class": "Network", "additionalSecurityGroups": []interface{}{"sg-nlb"}}, "spec", "api", "loadBalancer")}
		}, "nodes", []awstasks.SecurityGroup{kopsGroup("nodes")}, ""},
		{"a bad ID", func(c *kops.Cluster, igs []*kops.InstanceGroup) {
			igs[1].Unmodeled = kops.Unmodeled{unmodeled([]interface{}{"sg-1", 7}, "spec", "additionalSecurityGroups")}
		}, "nodes", nil, `instance group "nodes": spec.additionalSecurityGroups[1]: must be a security group ID`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := modelContext(t, "", tc.mutate)
			var ig *kops.InstanceGroup
			for _, g := range ctx.InstanceGroups {
				if g.Name == tc.group {
					ig = g
				}
			}
			require.NotNil(t, ig)
			got, err := securityGroups(ctx.Cluster, ig)
			if tc.wantErr != "" {
				assert.ErrorContains(t, err, tc.wantErr)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
			lt := build(t, ctx)["LaunchTemplate/"+LaunchTemplateName(testCluster, ig)].(*awstasks.LaunchTemplate)
			assert.Equal(t, tc.want, lt.SecurityGroups, "the template carries them")
		})
	}
}
