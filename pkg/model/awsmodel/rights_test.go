package awsmodel

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"k8s.io/kops/pkg/apis/kops"
	"k8s.io/kops/upup/pkg/fi/cloudup/awstasks"
)

// tagScopeProblems returns why a statement could let the cluster's machines change something that
// is not the cluster's: a changing action on every resource without a StringEquals condition on the
// cluster's tag (of the resource, or of the request that creates it), or any wildcard action.
func tagScopeProblems(s awstasks.Statement, cluster string) []string {
	var problems []string
	for _, a := range s.Action {
		if strings.Contains(a, "*") {
			problems = append(problems, fmt.Sprintf("wildcard action %s", a))
		}
	}
	if !slices.Contains(s.Resource, "*") {
		return problems
	}
	scoped := false
	for key, values := range s.Condition["StringEquals"] {
		if (key == "aws:ResourceTag/"+TagClusterName || key == "aws:RequestTag/"+TagClusterName) && slices.Equal(values, []string{cluster}) {
			scoped = true
		}
	}
	for _, a := range s.Action {
		if !isReadOnly(a) && !scoped {
			problems = append(problems, fmt.Sprintf("%s on * without a %s tag condition", a, TagClusterName))
		}
	}
	return problems
}

// everyPolicy builds the policies of all roles in every mode.
func everyPolicy(t *testing.T) map[string]*awstasks.IAMRolePolicy {
	out := map[string]*awstasks.IAMRolePolicy{}
	for _, mode := range []string{kops.PodMetadataAccessAllow, kops.PodMetadataAccessBlock, kops.PodMetadataAccessForward} {
		ctx := modelContext(t, mode, nil)
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
			assert.Empty(t, tagScopeProblems(s, testCluster), "%s statement %d: %s", name, i, s.Summary())
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
		// Read-only by prefix means the name after the service, not anywhere in it.
		{Effect: "Allow", Action: []string{"ec2:ModifyDescribeSomething"}, Resource: []string{"*"}},
	}
	for _, s := range bad {
		assert.NotEmpty(t, tagScopeProblems(s, testCluster), s.Summary())
	}
	assert.Empty(t, tagScopeProblems(awstasks.Statement{Action: []string{"ec2:DeleteVolume"}, Resource: []string{"*"}, Condition: resourceTag(testCluster)}, testCluster))
}

func TestTaggingOnlyAtCreation(t *testing.T) {
	for name, p := range everyPolicy(t) {
		for _, s := range p.PolicyDocument.Statement {
			for _, a := range s.Action {
				service, action, _ := strings.Cut(a, ":")
				if action != "CreateTags" && action != "AddTags" {
					continue
				}
				creates := s.Condition["StringEquals"][service+":CreateAction"]
				assert.NotEmpty(t, creates, "%s: %s without a CreateAction condition could tag a foreign resource as the cluster's", name, a)
			}
		}
	}
}

func TestRightsTableIsConsistent(t *testing.T) {
	seen := map[string]bool{}
	for _, r := range controlPlaneRights() {
		for _, a := range r.actions {
			assert.False(t, seen[a], "%s listed twice", a)
			seen[a] = true
			assert.Equal(t, r.scope == readOnly, isReadOnly(a), "%s is in the wrong row", a)
			assert.NotContains(t, a, "*")
		}
		assert.True(t, slices.IsSorted(r.actions), "rows are sorted so diffs stay readable")
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

func TestNodeRole(t *testing.T) {
	for _, mode := range []string{kops.PodMetadataAccessAllow, kops.PodMetadataAccessBlock} {
		assert.NotContains(t, build(t, modelContext(t, mode, nil)), "IAMRolePolicy/nodes.a.example.com", mode)
	}
	p := build(t, modelContext(t, kops.PodMetadataAccessForward, nil))["IAMRolePolicy/nodes.a.example.com"]
	require.NotNil(t, p, "Forward grants the node role what kube2iam needs")
	assert.Equal(t, []awstasks.Statement{{
		Effect: "Allow", Action: []string{"sts:AssumeRole"}, Resource: []string{testBaseARN + "*"},
	}}, p.(*awstasks.IAMRolePolicy).PolicyDocument.Statement, "exactly the roles under baseRoleARN")
}
