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
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"k8s.io/kops/pkg/apis/kops"
	"k8s.io/kops/upup/pkg/fi/cloudup/awstasks"
)

// TestARNsNameThePartition: a cluster in a region of each partition the AWS SDK knows gets IAM
// policies whose every ARN names that partition (an ARN of another partition matches nothing
// there, so the policy would grant nothing).
func TestARNsNameThePartition(t *testing.T) {
	tests := []struct{ zone, partition string }{
		{"us-east-1a", "aws"},
		{"cn-north-1a", "aws-cn"},
		{"us-gov-west-1a", "aws-us-gov"},
		{"us-iso-east-1a", "aws-iso"},
		{"us-isob-east-1a", "aws-iso-b"},
		{"eu-isoe-west-1a", "aws-iso-e"},
		{"us-isof-south-1a", "aws-iso-f"},
		{"eusc-de-east-1a", "aws-eusc"},
	}
	for _, tt := range tests {
		t.Run(tt.zone, func(t *testing.T) {
			ctx := modelContext(t, "", func(c *kops.Cluster, igs []*kops.InstanceGroup) {
				c.Spec.Subnets = []kops.ClusterSubnetSpec{{Name: tt.zone, Zone: tt.zone, CIDR: "172.20.32.0/19", Type: kops.SubnetTypePublic}}
				for _, ig := range igs {
					ig.Spec.Subnets = []string{tt.zone}
				}
			})
			arns := 0
			for key, task := range build(t, ctx) {
				p, ok := task.(*awstasks.IAMRolePolicy)
				if !ok {
					continue
				}
				for _, s := range p.PolicyDocument.Statement {
					for _, r := range s.Resource {
						if strings.HasPrefix(r, "arn:") {
							arns++
							assert.True(t, strings.HasPrefix(r, "arn:"+tt.partition+":"), "%s: %s", key, r)
						}
					}
				}
			}
			require.NotZero(t, arns, "the policies name ARNs")
		})
	}
}
