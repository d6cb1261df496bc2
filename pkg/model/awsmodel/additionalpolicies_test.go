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

func additionalPolicies(byRole map[string]interface{}) func(c *kops.Cluster, igs []*kops.InstanceGroup) {
	return func(c *kops.Cluster, igs []*kops.InstanceGroup) {
		c.Unmodeled = kops.Unmodeled{unmodeled(byRole, "spec", "additionalPolicies")}
	}
}

// TestAdditionalPoliciesAreKopsFurtherInlinePolicy: each key's statements become the inline policy
// additional.<role> of that role only, as written (kops's master is its control-plane), and a role
// without statements gets none.
func TestAdditionalPoliciesAreKopsFurtherInlinePolicy(t *testing.T) {
	tasks := build(t, modelContext(t, "", additionalPolicies(map[string]interface{}{
		"node": `[{"Sid": "Assets", "Effect": "Allow", "Action": "s3:GetObject", "Resource": ["arn:aws:s3:::app-assets/*"]},
		          {"Effect": "Deny", "Action": ["s3:DeleteObject", "s3:PutObject"], "Resource": "*",
		           "Condition": {"Bool": {"aws:SecureTransport": false}}}]`,
		"master": `[{"Effect": "Allow", "Action": ["dynamodb:*"], "Resource": ["*"]}]`,
	})))
	nodes, ok := tasks["IAMRolePolicy/additional.nodes."+testCluster].(*awstasks.IAMRolePolicy)
	require.True(t, ok, "the nodes' further inline policy")
	assert.Equal(t, "nodes."+testCluster, nodes.Role)
	assert.Equal(t, &awstasks.PolicyDocument{Version: awstasks.PolicyVersion, Statement: []awstasks.Statement{
		{Sid: "Assets", Effect: "Allow", Action: []string{"s3:GetObject"}, Resource: []string{"arn:aws:s3:::app-assets/*"}},
		{Effect: "Deny", Action: []string{"s3:DeleteObject", "s3:PutObject"}, Resource: []string{"*"},
			Condition: map[string]map[string][]string{"Bool": {"aws:SecureTransport": {"false"}}}},
	}}, nodes.PolicyDocument)

	masters, ok := tasks["IAMRolePolicy/additional.masters."+testCluster].(*awstasks.IAMRolePolicy)
	require.True(t, ok, "master is kops's old name of the control plane")
	assert.Equal(t, "masters."+testCluster, masters.Role)
	// The user's own rights are written as asked, wildcards and all: the scope rules hold our policies only.
	assert.Equal(t, []awstasks.Statement{{Effect: "Allow", Action: []string{"dynamodb:*"}, Resource: []string{"*"}}}, masters.PolicyDocument.Statement)
	assert.NotEmpty(t, scopeProblems(masters.PolicyDocument.Statement[0], testCluster), "the check would refuse it in a policy of ours")

	assert.NotContains(t, tasks, "IAMRolePolicy/additional.bastions."+testCluster)
	// The role's own policy is unchanged beside it.
	assert.Contains(t, tasks, "IAMRolePolicy/nodes."+testCluster)
}

// TestAdditionalPoliciesKeysReachTheirRoles: every key kops accepts lands on its role.
func TestAdditionalPoliciesKeysReachTheirRoles(t *testing.T) {
	doc := `[{"Effect": "Allow", "Action": "sqs:SendMessage", "Resource": "arn:aws:sqs:us-east-2:123456789012:jobs"}]`
	for key, role := range map[string]string{"control-plane": "masters", "master": "masters", "node": "nodes", "bastion": "bastions", "apiserver": "apiservers"} {
		t.Run(key, func(t *testing.T) {
			tasks := build(t, modelContext(t, "", func(c *kops.Cluster, igs []*kops.InstanceGroup) {
				additionalPolicies(map[string]interface{}{key: doc})(c, igs)
				igs[2] = group("api", kops.RoleAPIServer)
				if key == "bastion" {
					igs[2] = group("bastions", kops.RoleBastion)
				}
			}))
			p, ok := tasks["IAMRolePolicy/additional."+role+"."+testCluster].(*awstasks.IAMRolePolicy)
			require.True(t, ok, "%s's further inline policy", role)
			assert.Equal(t, role+"."+testCluster, p.Role)
			count := 0
			for name := range tasks {
				if strings.HasPrefix(name, "IAMRolePolicy/additional.") {
					count++
				}
			}
			assert.Equal(t, 1, count, "one role only")
		})
	}
}

// TestAdditionalPoliciesBadInput: each refusal names the key, the statement and what is wrong.
// kops's validation (Test_Validate_AdditionalPolicies) refuses a key that is no role, JSON that is
// no list of statements, a statement without Effect and an Effect other than Allow or Deny (allow
// too); the rest kops lets through, where AWS would refuse the policy at apply (no Action or
// Resource, Principal) or kops would drop a key (NotAction, NotResource): refused here, earlier.
func TestAdditionalPoliciesBadInput(t *testing.T) {
	tests := []struct {
		name  string
		value interface{}
		want  string
	}{
		{"malformed JSON", map[string]interface{}{"node": `[{"Effect": "Allow",`}, "spec.additionalPolicies.node: must be a JSON list of policy statements"},
		{"an object, not a list", map[string]interface{}{"node": `{"Effect": "Allow", "Action": "s3:GetObject", "Resource": "*"}`},
			"spec.additionalPolicies.node: must be a JSON list of policy statements"},
		{"kops's badjson", map[string]interface{}{"control-plane": `badjson`}, "spec.additionalPolicies.control-plane: must be a JSON list of policy statements"},
		{"kops's notarole", map[string]interface{}{"notarole": `[{"Effect": "Allow", "Action": "s3:GetObject", "Resource": "*"}]`},
			`spec.additionalPolicies.notarole: "notarole" is not a role kops knows`},
		{"kops's lower-case allow", map[string]interface{}{"control-plane": `[{"Effect": "allow", "Action": ["s3:GetObject"], "Resource": ["*"]}]`},
			`spec.additionalPolicies.control-plane[0].Effect: must be Allow or Deny, not "allow"`},
		{"trailing text", map[string]interface{}{"node": `[] []`}, "spec.additionalPolicies.node: has more after its JSON list"},
		{"no statement", map[string]interface{}{"node": `[]`}, "spec.additionalPolicies.node: has no statement"},
		{"empty", map[string]interface{}{"node": ``}, "spec.additionalPolicies.node: must be a JSON list of policy statements"},
		{"no Effect", map[string]interface{}{"node": `[{"Action": "s3:GetObject", "Resource": "*"}]`}, "spec.additionalPolicies.node[0].Effect: must be set"},
		{"bad Effect", map[string]interface{}{"node": `[{"Effect": "Allowed", "Action": "s3:GetObject", "Resource": "*"}]`},
			`spec.additionalPolicies.node[0].Effect: must be Allow or Deny, not "Allowed"`},
		{"no Action, second statement", map[string]interface{}{"node": `[{"Effect": "Allow", "Action": "s3:GetObject", "Resource": "*"}, {"Effect": "Allow", "Resource": "*"}]`},
			"spec.additionalPolicies.node[1].Action: must be set"},
		{"no Resource", map[string]interface{}{"bastion": `[{"Effect": "Allow", "Action": "s3:GetObject"}]`}, "spec.additionalPolicies.bastion[0].Resource: must be set"},
		{"empty Action", map[string]interface{}{"node": `[{"Effect": "Allow", "Action": [""], "Resource": "*"}]`}, "spec.additionalPolicies.node[0].Action: must not hold an empty string"},
		{"NotAction, which kops drops", map[string]interface{}{"node": `[{"Effect": "Allow", "NotAction": "iam:*", "Resource": "*"}]`},
			"spec.additionalPolicies.node[0].NotAction: is not supported (kops drops it"},
		{"Principal", map[string]interface{}{"node": `[{"Effect": "Allow", "Action": "s3:GetObject", "Resource": "*", "Principal": "*"}]`},
			"spec.additionalPolicies.node[0].Principal: a policy on a role names no principal"},
		{"a key kops does not accept", map[string]interface{}{"nodes": `[]`}, `spec.additionalPolicies.nodes: "nodes" is not a role kops knows`},
		{"both master and control-plane", map[string]interface{}{"control-plane": `[{"Effect": "Allow", "Action": "s3:GetObject", "Resource": "*"}]`, "master": `[]`},
			"spec.additionalPolicies.master: the control plane's policy is given under master and control-plane"},
		{"not a string", map[string]interface{}{"node": []interface{}{map[string]interface{}{"Effect": "Allow"}}}, "spec.additionalPolicies.node: must be a JSON list of IAM statements in a string"},
		{"not a map", []interface{}{"node"}, "spec.additionalPolicies: must map role names"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ctx := modelContext(t, "", func(c *kops.Cluster, igs []*kops.InstanceGroup) {
				c.Unmodeled = kops.Unmodeled{unmodeled(tc.value, "spec", "additionalPolicies")}
			})
			_, err := readFacts(ctx)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}
