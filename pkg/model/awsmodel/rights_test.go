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
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"k8s.io/kops/pkg/apis/kops"
	"k8s.io/kops/pkg/model"
	"k8s.io/kops/upup/pkg/fi/cloudup/awstasks"
)

// scoped says whether the statement has a condition that confines a changing action on every resource: the
// resource is the cluster's, the creating request makes it the cluster's, KMS is used only through
// EC2 or S3 (kms:ViaService) or only for AWS services' grants, a service-linked role only for ELB.
func scoped(s awstasks.Statement, cluster string) bool {
	for key, values := range s.Condition["StringEquals"] {
		if (key == "aws:ResourceTag/"+TagClusterName || key == "aws:RequestTag/"+TagClusterName) && slices.Equal(values, []string{cluster}) {
			return true
		}
		if key == "iam:AWSServiceName" && slices.Equal(values, []string{"elasticloadbalancing.amazonaws.com"}) {
			return true
		}
	}
	if slices.Equal(s.Condition["Bool"]["kms:GrantIsForAWSResource"], []string{"true"}) {
		return true
	}
	for _, v := range s.Condition["StringLike"]["kms:ViaService"] {
		if !strings.HasPrefix(v, "ec2.") && !strings.HasPrefix(v, "s3.") {
			return false
		}
	}
	return len(s.Condition["StringLike"]["kms:ViaService"]) > 0
}

// scopeProblems returns why a statement could let the cluster's machines change something that is
// not the cluster's: a changing action on every resource without a scoping condition, or a
// wildcard action that is neither confined to a resource (s3:Get* below the state store) nor to
// KMS through EC2 and S3.
func scopeProblems(s awstasks.Statement, cluster string) []string {
	var problems []string
	everything := slices.Contains(s.Resource, "*")
	for _, a := range s.Action {
		if strings.Contains(a, "*") && everything && !scoped(s, cluster) {
			problems = append(problems, fmt.Sprintf("wildcard action %s", a))
		}
		if everything && !isReadOnly(a) && !scoped(s, cluster) {
			problems = append(problems, fmt.Sprintf("%s on * without a scoping condition", a))
		}
	}
	return problems
}

// everyPolicy builds the policies of all roles in every mode, and with kops's components' roles of
// their own (IRSA), and with ECR mirrors and a warm pool.
func everyPolicy(t *testing.T) map[string]*awstasks.IAMRolePolicy {
	out := map[string]*awstasks.IAMRolePolicy{}
	for _, mode := range []string{kops.PodMetadataAccessAllow, kops.PodMetadataAccessBlock, kops.PodMetadataAccessForward, "IRSA", "node options"} {
		var ctx *model.KopsModelContext
		switch mode {
		case "IRSA":
			ctx = modelContext(t, kops.PodMetadataAccessBlock, irsaCluster(true))
		case "node options":
			// ECR pull-through mirrors and a warm pool with its lifecycle hook.
			ctx = modelContext(t, kops.PodMetadataAccessBlock, func(c *kops.Cluster, igs []*kops.InstanceGroup) {
				c.Unmodeled = kops.Unmodeled{
					unmodeled(map[string]interface{}{"useECRCredentialsForMirrors": true}, "spec", "containerd"),
					unmodeled(map[string]interface{}{"enableLifecycleHook": true}, "spec", "warmPool"),
				}
			})
		default:
			ctx = modelContext(t, mode, nil)
		}
		ctx.InstanceGroups = append(ctx.InstanceGroups, group("api", kops.RoleAPIServer))
		tasks := build(t, ctx)
		for key, task := range tasks {
			if p, ok := task.(*awstasks.IAMRolePolicy); ok {
				out[mode+" "+key] = p
			}
		}
	}
	require.NotEmpty(t, out)
	return out
}

func TestEveryChangingStatementIsScopedToTheCluster(t *testing.T) {
	for name, p := range everyPolicy(t) {
		for i, s := range p.PolicyDocument.Statement {
			assert.Empty(t, scopeProblems(s, testCluster), "%s statement %d: %s", name, i, s.Summary())
		}
	}
}

// TestTagScopeCheckCatches proves the check above can fail: statements an attacker would love.
func TestTagScopeCheckCatches(t *testing.T) {
	resourceTag := func(v string) map[string]map[string][]string {
		return map[string]map[string][]string{"StringEquals": {"aws:ResourceTag/KubernetesCluster": {v}}}
	}
	bad := []awstasks.Statement{
		{Effect: "Allow", Action: []string{"ec2:TerminateInstances"}, Resource: []string{"*"}},
		{Effect: "Allow", Action: []string{"ec2:DescribeInstances", "ec2:DeleteVolume"}, Resource: []string{"*"}},
		{Effect: "Allow", Action: []string{"ec2:DeleteVolume"}, Resource: []string{"*"}, Condition: resourceTag("other.example.com")},
		{Effect: "Allow", Action: []string{"ec2:DeleteVolume"}, Resource: []string{"*"},
			Condition: map[string]map[string][]string{"StringLike": {"aws:ResourceTag/KubernetesCluster": {"*"}}}},
		{Effect: "Allow", Action: []string{"ec2:Describe*"}, Resource: []string{"*"}},
		{Effect: "Allow", Action: []string{"ec2:RunInstances"}, Resource: []string{"*"},
			Condition: map[string]map[string][]string{"StringEquals": {"aws:ResourceTag/Name": {testCluster}}}},
		{Effect: "Allow", Action: []string{"kms:Decrypt"}, Resource: []string{"*"},
			Condition: map[string]map[string][]string{"StringLike": {"kms:ViaService": {"ec2.us-east-2.amazonaws.com", "lambda.*.amazonaws.com"}}}},
		{Effect: "Allow", Action: []string{"iam:CreateServiceLinkedRole"}, Resource: []string{"*"},
			Condition: map[string]map[string][]string{"StringEquals": {"iam:AWSServiceName": {"ec2.amazonaws.com"}}}},
		// Read-only by prefix means the name after the service, not anywhere in it.
		{Effect: "Allow", Action: []string{"ec2:ModifyDescribeSomething"}, Resource: []string{"*"}},
	}
	for _, s := range bad {
		assert.NotEmpty(t, scopeProblems(s, testCluster), s.Summary())
	}
	assert.Empty(t, scopeProblems(awstasks.Statement{Action: []string{"ec2:DeleteVolume"}, Resource: []string{"*"}, Condition: resourceTag(testCluster)}, testCluster))
}

// Whoever may put the cluster's tag on a foreign resource gains every onTagged right over it. So a
// tagging action is granted only on what is the cluster's already (and, on EC2, without touching
// the cluster tag), or when the call that creates the resource tags it as the cluster's; the
// interfaces ENI-based CNIs create untagged are the one exception kops makes, and it reaches
// network interfaces only.
func TestTaggingReachesOnlyTheClustersResources(t *testing.T) {
	checkTagging(t, everyPolicy(t))
}

func checkTagging(t assert.TestingT, policies map[string]*awstasks.IAMRolePolicy) {
	for name, p := range policies {
		for _, s := range p.PolicyDocument.Statement {
			for _, a := range s.Action {
				service, action, _ := strings.Cut(a, ":")
				if action != "CreateTags" && action != "DeleteTags" && action != "AddTags" && action != "RemoveTags" {
					continue
				}
				eq := s.Condition["StringEquals"]
				existing := slices.Equal(eq["aws:ResourceTag/"+TagClusterName], []string{testCluster})
				if existing && service == "ec2" {
					existing = slices.Equal(s.Condition["Null"]["aws:RequestTag/"+TagClusterName], []string{"true"})
				}
				creating := len(eq[service+":CreateAction"]) > 0 && slices.Equal(eq["aws:RequestTag/"+TagClusterName], []string{testCluster})
				enis := slices.Equal(s.Resource, []string{"arn:aws:ec2:*:*:network-interface/*"})
				assert.True(t, existing || creating || enis, "%s: %s could tag a foreign resource as the cluster's: %s", name, a, s.Summary())
			}
		}
	}
}

// The check above can fail: tagging statements an attacker would love.
func TestTaggingCheckCatches(t *testing.T) {
	eq := func(kv ...string) map[string][]string {
		m := map[string][]string{}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i]] = []string{kv[i+1]}
		}
		return m
	}
	bad := []awstasks.Statement{
		{Action: []string{"ec2:CreateTags"}, Resource: []string{"*"}},
		{Action: []string{"ec2:CreateTags"}, Resource: []string{"arn:aws:ec2:*:*:volume/*"}, Condition: map[string]map[string][]string{
			"StringEquals": eq("aws:ResourceTag/KubernetesCluster", testCluster)}},
		{Action: []string{"ec2:CreateTags"}, Resource: []string{"*"}, Condition: map[string]map[string][]string{
			"StringEquals": eq("aws:RequestTag/KubernetesCluster", testCluster)}},
		{Action: []string{"elasticloadbalancing:AddTags"}, Resource: []string{"*"}, Condition: map[string]map[string][]string{
			"StringEquals": eq("aws:ResourceTag/KubernetesCluster", "other.example.com")}},
	}
	for _, st := range bad {
		p := map[string]*awstasks.IAMRolePolicy{"bad": {PolicyDocument: &awstasks.PolicyDocument{Statement: []awstasks.Statement{st}}}}
		fake := &testing.T{}
		checkTagging(fake, p)
		assert.True(t, fake.Failed(), st.Summary())
	}
}

// A changing action granted on every resource without a condition is one of these, each with why.
// Everything else so granted only reads.
func TestUnconditionedChangesAreTheListedOnes(t *testing.T) {
	eni := "the VPC CNI creates, attaches and addresses interfaces it creates untagged; kops and AWS's own CNI policy grant it on every interface"
	allowed := map[string]string{
		"ec2:AssignIpv6Addresses":             "nodeup on IPv6 clusters: AWS documents no tag condition for it",
		"ec2:AssignPrivateIpAddresses":        eni,
		"ec2:AttachNetworkInterface":          eni,
		"ec2:CreateNetworkInterface":          eni,
		"ec2:DeleteNetworkInterface":          eni,
		"ec2:DetachNetworkInterface":          eni,
		"ec2:ModifyNetworkInterfaceAttribute": eni,
		"ec2:UnassignPrivateIpAddresses":      eni,
	}
	for _, mode := range []string{kops.PodMetadataAccessAllow, kops.PodMetadataAccessBlock, kops.PodMetadataAccessForward} {
		ctx := modelContext(t, mode, func(c *kops.Cluster, igs []*kops.InstanceGroup) {
			c.Spec.Networking = &kops.NetworkingSpec{AmazonVPC: &kops.AmazonVPCNetworkingSpec{}}
		})
		facts, err := readFacts(ctx)
		require.NoError(t, err)
		for _, role := range []kops.InstanceGroupRole{kops.RoleControlPlane, kops.RoleAPIServer, kops.RoleNode} {
			for _, g := range facts.grantsFor(role) {
				if g.condition != nil || (len(g.resources) > 0 && !slices.Contains(g.resources, "*")) {
					continue
				}
				for _, a := range g.actions {
					if isReadOnly(a) {
						continue
					}
					assert.Contains(t, allowed, a, "%s %s: %s granted on every resource without a condition", mode, role, a)
				}
			}
		}
	}
}

func TestIsReadOnly(t *testing.T) {
	for a, want := range map[string]bool{
		"ec2:DescribeInstances": true, "s3:GetObject": true, "iam:ListRoles": true,
		"ec2:CreateRoute": false, "ec2:RunInstances": false, "DescribeInstances": false, "ec2:Modify": false,
	} {
		assert.Equal(t, want, isReadOnly(a), a)
	}
}

// The node role holds what kops's node role holds on the cluster (here Calico's source/destination
// check of the machine's own interface), and in mode Forward exactly the roles under baseRoleARN.
func TestNodeRole(t *testing.T) {
	calico := []awstasks.Statement{
		{Effect: "Allow", Action: []string{"ec2:DescribeInstances"}, Resource: []string{"*"}},
		{Effect: "Allow", Action: []string{"ec2:ModifyNetworkInterfaceAttribute"}, Resource: []string{"*"},
			Condition: map[string]map[string][]string{"StringEquals": {"aws:ResourceTag/KubernetesCluster": {testCluster}}}},
	}
	for _, mode := range []string{kops.PodMetadataAccessAllow, kops.PodMetadataAccessBlock} {
		p := build(t, modelContext(t, mode, nil))["IAMRolePolicy/nodes.a.example.com"]
		require.NotNil(t, p, mode)
		assert.Equal(t, calico, p.(*awstasks.IAMRolePolicy).PolicyDocument.Statement, mode)
	}
	p := build(t, modelContext(t, kops.PodMetadataAccessForward, nil))["IAMRolePolicy/nodes.a.example.com"]
	require.NotNil(t, p, "Forward grants the node role what kube2iam needs")
	want := append(slices.Clone(calico), awstasks.Statement{Effect: "Allow", Action: []string{"sts:AssumeRole"}, Resource: []string{testBaseARN + "*"}})
	assert.Equal(t, want, p.(*awstasks.IAMRolePolicy).PolicyDocument.Statement, "exactly the roles under baseRoleARN")
}
