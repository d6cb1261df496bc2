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
	"sort"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"k8s.io/kops/pkg/apis/kops"
	"k8s.io/kops/upup/pkg/fi"
	"k8s.io/kops/upup/pkg/fi/cloudup/awstasks"
)

const testIssuerHostPath = "discovery.example.com/a.example.com"

// irsaCluster turns on the components' roles of their own (components) or not, with kops's
// discovery store and OIDC provider, Route 53 by zone ID, the cluster autoscaler, the load
// balancer controller and the snapshot controller.
func irsaCluster(components bool, more ...kops.UnmodeledField) func(c *kops.Cluster, igs []*kops.InstanceGroup) {
	return func(c *kops.Cluster, igs []*kops.InstanceGroup) {
		// kopsField reads the first match, so more go first and win.
		c.Unmodeled = append(append(kops.Unmodeled{}, more...),
			unmodeled(components, "spec", "iam", "useServiceAccountExternalPermissions"),
			unmodeled(map[string]interface{}{"discoveryStore": "memfs://" + testIssuerHostPath, "enableAWSOIDCProvider": true,
				"additionalAudiences": []interface{}{"sts.amazonaws.com"}}, "spec", "serviceAccountIssuerDiscovery"),
			unmodeled("Z0123456789", "spec", "dnsZone"),
			unmodeled(map[string]interface{}{"enabled": true}, "spec", "clusterAutoscaler"),
			unmodeled(map[string]interface{}{"enabled": true}, "spec", "awsLoadBalancerController"),
			unmodeled(map[string]interface{}{"enabled": true}, "spec", "snapshotController"),
		)
	}
}

// grantFacts flattens policies to one line per action, resource and condition.
func grantFacts(policies ...*awstasks.IAMRolePolicy) []string {
	seen := map[string]bool{}
	for _, p := range policies {
		for _, s := range p.PolicyDocument.Statement {
			for _, a := range s.Action {
				for _, r := range s.Resource {
					seen[a+" on "+r+s.ConditionSummary()] = true
				}
			}
		}
	}
	out := make([]string, 0, len(seen))
	for f := range seen {
		out = append(out, f)
	}
	sort.Strings(out)
	return out
}

func policiesOf(tasks map[string]fi.Task) map[string]*awstasks.IAMRolePolicy {
	out := map[string]*awstasks.IAMRolePolicy{}
	for _, task := range tasks {
		if p, ok := task.(*awstasks.IAMRolePolicy); ok {
			out[p.Name] = p
		}
	}
	return out
}

// With useServiceAccountExternalPermissions, the rights of kops's components move from the control
// plane to their roles: none is lost, none is added, and the control plane keeps none of them.
func TestComponentRightsMoveToTheirRoles(t *testing.T) {
	before := policiesOf(build(t, modelContext(t, "", irsaCluster(false))))
	tasks := build(t, modelContext(t, "", irsaCluster(true)))
	after := policiesOf(tasks)

	masters := "masters." + testCluster
	components := map[string]string{
		"dns-controller":               "route53:ChangeResourceRecordSets",
		"aws-cloud-controller-manager": "elasticloadbalancing:CreateLoadBalancer",
		"ebs-csi-controller-sa":        "ec2:CreateSnapshot",
		"cluster-autoscaler":           "autoscaling:SetDesiredCapacity",
		"aws-node-termination-handler": "sqs:ReceiveMessage",
		"aws-load-balancer-controller": "elasticloadbalancing:CreateRule",
	}
	var moved []*awstasks.IAMRolePolicy
	for name, action := range components {
		role := name + ".kube-system.sa." + testCluster
		require.Contains(t, after, role)
		moved = append(moved, after[role])
		assert.Contains(t, actionsOf(after[role]), action, role)
		assert.NotContains(t, actionsOf(after[masters]), action, "the control plane keeps none of %s's rights", name)
	}
	assert.Equal(t, grantFacts(before[masters]), grantFacts(append(moved, after[masters])...))
	assert.Equal(t, grantFacts(before["nodes."+testCluster]), grantFacts(after["nodes."+testCluster]), "nodes keep theirs")

	role := tasks["IAMRole/dns-controller.kube-system.sa."+testCluster].(*awstasks.IAMRole)
	assert.Equal(t, &awstasks.WebIdentity{Issuer: "https://" + testIssuerHostPath, Provider: testCluster}, role.WebIdentity)
	assert.Equal(t, "kube-system-dns-controller", role.ExportAs)
	assert.Equal(t, "dns-controller", role.Tags["service-account.kops.k8s.io/name"])
	require.Len(t, role.AssumeRolePolicy.Statement, 1)
	trust := role.AssumeRolePolicy.Statement[0]
	assert.Equal(t, []string{"sts:AssumeRoleWithWebIdentity"}, trust.Action)
	assert.Equal(t, awstasks.OIDCProviderARN, trust.Principal.Federated)
	assert.Equal(t, map[string]map[string][]string{"StringEquals": {
		testIssuerHostPath + ":sub": {"system:serviceaccount:kube-system:dns-controller"},
		testIssuerHostPath + ":aud": {"amazonaws.com"},
	}}, trust.Condition)

	provider := tasks["IAMOIDCProvider/"+testCluster].(*awstasks.IAMOIDCProvider)
	assert.Equal(t, "https://"+testIssuerHostPath, provider.URL)
	assert.Equal(t, []string{"amazonaws.com", "sts.amazonaws.com"}, provider.ClientIDs)
	assert.Len(t, provider.Thumbprints, 2)
}

func actionsOf(p *awstasks.IAMRolePolicy) []string {
	var out []string
	for _, s := range p.PolicyDocument.Statement {
		out = append(out, s.Action...)
	}
	return out
}

// Components that do not run get no role; without the setting, none does.
func TestComponentRolesFollowTheSpec(t *testing.T) {
	roles := func(tasks map[string]fi.Task) []string {
		var out []string
		for _, task := range tasks {
			if r, ok := task.(*awstasks.IAMRole); ok && r.WebIdentity != nil {
				out = append(out, r.Name)
			}
		}
		sort.Strings(out)
		return out
	}
	assert.Empty(t, roles(build(t, modelContext(t, "", irsaCluster(false)))))
	tasks := build(t, modelContext(t, "", irsaCluster(true,
		unmodeled(map[string]interface{}{"enabled": false}, "spec", "clusterAutoscaler"),
		unmodeled(map[string]interface{}{"enabled": false}, "spec", "nodeTerminationHandler"),
		unmodeled(map[string]interface{}{"provider": "external-dns"}, "spec", "externalDns"),
		unmodeled(map[string]interface{}{"awsEBSCSIDriver": map[string]interface{}{"managed": false}}, "spec", "cloudConfig"),
		unmodeled(map[string]interface{}{"enabled": false}, "spec", "awsLoadBalancerController"),
	)))
	assert.Equal(t, []string{"aws-cloud-controller-manager.kube-system.sa." + testCluster, "external-dns.kube-system.sa." + testCluster}, roles(tasks))
}

func TestExternalPermissions(t *testing.T) {
	entries := []interface{}{
		map[string]interface{}{"name": "app", "namespace": "default", "aws": map[string]interface{}{
			"policyARNs": []interface{}{"arn:aws:iam::123456789012:policy/P", "arn:aws:iam::aws:policy/ReadOnlyAccess"}}},
		map[string]interface{}{"name": "app", "namespace": "team-*", "aws": map[string]interface{}{
			"inlinePolicy": `[{"Effect": "Allow", "Action": "dynamodb:GetItem", "Resource": ["arn:aws:dynamodb:us-east-2:123456789012:table/t"]}]`}},
	}
	tasks := build(t, modelContext(t, "", irsaCluster(false, unmodeled(entries, "spec", "iam", "serviceAccountExternalPermissions"))))

	attach := tasks["IAMRolePolicyAttachment/external-app.default.sa."+testCluster].(*awstasks.IAMRolePolicyAttachment)
	assert.Equal(t, []string{"arn:aws:iam::123456789012:policy/P", "arn:aws:iam::aws:policy/ReadOnlyAccess"}, attach.PolicyARNs)
	assert.NotContains(t, tasks, "IAMRolePolicy/app.default.sa."+testCluster, "no inline policy, no role policy")

	wild := tasks["IAMRole/app.team-wildcard.sa."+testCluster].(*awstasks.IAMRole)
	assert.Equal(t, "team-wildcard-app", wild.ExportAs)
	assert.Equal(t, map[string][]string{testIssuerHostPath + ":sub": {"system:serviceaccount:team-*:app"}},
		wild.AssumeRolePolicy.Statement[0].Condition["StringLike"], "a wildcard namespace is matched, as kops matches it")
	inline := tasks["IAMRolePolicy/app.team-wildcard.sa."+testCluster].(*awstasks.IAMRolePolicy)
	assert.Equal(t, []awstasks.Statement{{Effect: "Allow", Action: []string{"dynamodb:GetItem"}, Resource: []string{"arn:aws:dynamodb:us-east-2:123456789012:table/t"}}},
		inline.PolicyDocument.Statement)
	assert.Contains(t, tasks, "IAMRole/masters."+testCluster)
}

// Every bad entry is refused naming its field.
func TestIRSAErrorsNameTheField(t *testing.T) {
	entry := func(aws map[string]interface{}) map[string]interface{} {
		return map[string]interface{}{"name": "app", "namespace": "default", "aws": aws}
	}
	const field = "spec.iam.serviceAccountExternalPermissions"
	tests := []struct {
		name    string
		entries []interface{}
		more    []kops.UnmodeledField
		want    string
	}{
		{"bad ARN", []interface{}{entry(map[string]interface{}{"policyARNs": []interface{}{"arn:aws:iam::1:policy/a", "ReadOnlyAccess"}})},
			nil, field + "[0].aws.policyARNs[1]: ReadOnlyAccess is not a managed policy's ARN"},
		{"no rights", []interface{}{entry(map[string]interface{}{})}, nil, field + "[0].aws: needs policyARNs or inlinePolicy"},
		{"no aws", []interface{}{map[string]interface{}{"name": "a", "namespace": "b"}}, nil, field + "[0].aws: must be set"},
		{"no name", []interface{}{map[string]interface{}{"namespace": "b"}}, nil, field + "[0].name: must be set"},
		{"wildcard name", []interface{}{map[string]interface{}{"name": "a*", "namespace": "b"}}, nil, field + "[0].name: \"a*\": a service account's name cannot have a wildcard"},
		{"twice", []interface{}{entry(map[string]interface{}{"policyARNs": []interface{}{"arn:aws:iam::1:policy/a"}}),
			entry(map[string]interface{}{"policyARNs": []interface{}{"arn:aws:iam::1:policy/a"}})}, nil, field + "[1]: service account default/app is named again (first by " + field + "[0])"},
		{"inline not JSON", []interface{}{entry(map[string]interface{}{"inlinePolicy": "{"})}, nil, field + "[0].aws.inlinePolicy: must be a JSON list"},
		{"inline NotAction", []interface{}{entry(map[string]interface{}{"inlinePolicy": `[{"Effect":"Allow","NotAction":"s3:*","Resource":"*"}]`})},
			nil, field + "[0].aws.inlinePolicy[0].NotAction: is not supported"},
		{"inline no Resource", []interface{}{entry(map[string]interface{}{"inlinePolicy": `[{"Effect":"Allow","Action":"s3:GetObject"}]`})},
			nil, field + "[0].aws.inlinePolicy[0].Resource: must be set"},
		{"a component's account", []interface{}{map[string]interface{}{"name": "dns-controller", "namespace": "kube-system",
			"aws": map[string]interface{}{"policyARNs": []interface{}{"arn:aws:iam::1:policy/a"}}}},
			[]kops.UnmodeledField{unmodeled(true, "spec", "iam", "useServiceAccountExternalPermissions")},
			field + "[0]: the role of service account kube-system/dns-controller, dns-controller.kube-system.sa.a.example.com, is another's too"},
		{"S3 store", nil, []kops.UnmodeledField{unmodeled(true, "spec", "iam", "useServiceAccountExternalPermissions"),
			unmodeled("s3://bucket/a", "spec", "serviceAccountIssuerDiscovery", "discoveryStore")},
			"spec.serviceAccountIssuerDiscovery.discoveryStore: \"s3://bucket/a\" is in S3"},
		{"issuer not https", nil, []kops.UnmodeledField{unmodeled(true, "spec", "iam", "useServiceAccountExternalPermissions"),
			unmodeled("http://d.example.com", "spec", "kubeAPIServer", "serviceAccountIssuer")},
			"spec.kubeAPIServer.serviceAccountIssuer: \"http://d.example.com\" must be an https URL"},
		{"empty audience", nil, []kops.UnmodeledField{unmodeled([]interface{}{""}, "spec", "serviceAccountIssuerDiscovery", "additionalAudiences")},
			"spec.serviceAccountIssuerDiscovery.additionalAudiences[0]: must be a non-empty string"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ctx := modelContext(t, "", func(c *kops.Cluster, igs []*kops.InstanceGroup) {
				c.Unmodeled = kops.Unmodeled{unmodeled("memfs://"+testIssuerHostPath, "spec", "serviceAccountIssuerDiscovery", "discoveryStore")}
				if tc.entries != nil {
					c.Unmodeled = append(c.Unmodeled, unmodeled(tc.entries, "spec", "iam", "serviceAccountExternalPermissions"))
				}
				// Later fields win: kopsField reads the first match, so the case's own go first.
				c.Unmodeled = append(append(kops.Unmodeled{}, tc.more...), c.Unmodeled...)
			})
			c := &fi.ModelBuilderContext{}
			var err error
			for _, b := range Builders(ctx) {
				if err = b.Build(c); err != nil {
					break
				}
			}
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}

func TestIssuer(t *testing.T) {
	tests := []struct {
		fields []kops.UnmodeledField
		want   string
	}{
		{[]kops.UnmodeledField{unmodeled("memfs://d.example.com/a/", "spec", "serviceAccountIssuerDiscovery", "discoveryStore")}, "https://d.example.com/a"},
		{[]kops.UnmodeledField{unmodeled("https://b.s3.us-east-2.amazonaws.com/a", "spec", "kubeAPIServer", "serviceAccountIssuer"),
			unmodeled("s3://b/a", "spec", "serviceAccountIssuerDiscovery", "discoveryStore")}, "https://b.s3.us-east-2.amazonaws.com/a"},
	}
	for _, tc := range tests {
		got, err := readIssuer(kops.Unmodeled(tc.fields))
		require.NoError(t, err)
		assert.Equal(t, tc.want, got)
	}
	_, err := readIssuer(nil)
	assert.ErrorContains(t, err, "spec.serviceAccountIssuerDiscovery.discoveryStore: must be set")
}

// A permissions boundary is on every role, the machines' and the service accounts'; external
// policies are attached to the roles of their kind, sorted, under kops's names.
func TestBoundaryAndExternalPolicies(t *testing.T) {
	const boundary = "arn:aws:iam::123456789012:policy/boundary"
	tasks := build(t, modelContext(t, "", irsaCluster(true,
		unmodeled(boundary, "spec", "iam", "permissionsBoundary"),
		unmodeled(map[string]interface{}{
			"master": []interface{}{"arn:aws:iam::123456789012:policy/b", "arn:aws:iam::123456789012:policy/a"},
			"node":   []interface{}{"arn:aws:iam::aws:policy/ReadOnlyAccess"},
		}, "spec", "externalPolicies"),
	)))
	roles := 0
	for _, task := range tasks {
		if r, ok := task.(*awstasks.IAMRole); ok {
			roles++
			assert.Equal(t, boundary, r.PermissionsBoundary, r.Name)
		}
	}
	assert.Greater(t, roles, 5, "the machines' roles and the components'")
	masters := tasks["IAMRolePolicyAttachment/master-policyoverride"].(*awstasks.IAMRolePolicyAttachment)
	assert.Equal(t, "masters."+testCluster, masters.Role)
	assert.Equal(t, []string{"arn:aws:iam::123456789012:policy/a", "arn:aws:iam::123456789012:policy/b"}, masters.PolicyARNs)
	assert.Equal(t, "nodes."+testCluster, tasks["IAMRolePolicyAttachment/node-policyoverride"].(*awstasks.IAMRolePolicyAttachment).Role)
	assert.NotContains(t, tasks, "IAMRolePolicyAttachment/bastion-policyoverride")
}

func TestRoleOptionErrorsNameTheField(t *testing.T) {
	tests := []struct {
		field kops.UnmodeledField
		want  string
	}{
		{unmodeled("boundary", "spec", "iam", "permissionsBoundary"), `spec.iam.permissionsBoundary: "boundary" is not a managed policy's ARN`},
		{unmodeled(map[string]interface{}{"nodes": []interface{}{}}, "spec", "externalPolicies"), `spec.externalPolicies.nodes: "nodes" is not a role kops knows`},
		{unmodeled(map[string]interface{}{"node": []interface{}{"arn:aws:iam::1:policy/a", "arn:aws:s3:::b"}}, "spec", "externalPolicies"),
			"spec.externalPolicies.node[1]: arn:aws:s3:::b is not a managed policy's ARN"},
		{unmodeled(map[string]interface{}{"master": []interface{}{}, "control-plane": []interface{}{}}, "spec", "externalPolicies"),
			"spec.externalPolicies.master: the control plane's policies are listed under master and control-plane"},
		{unmodeled([]interface{}{"arn:aws:iam::1:policy/a"}, "spec", "externalPolicies"), "spec.externalPolicies: must map role names"},
		{unmodeled(map[string]interface{}{"enabled": true, "enableWAFv2": true}, "spec", "awsLoadBalancerController"),
			"spec.awsLoadBalancerController.enableWAFv2 is set: the AWS Load Balancer Controller's WAFv2 rights are not modeled"},
	}
	for _, tc := range tests {
		t.Run(tc.want, func(t *testing.T) {
			ctx := modelContext(t, "", func(c *kops.Cluster, igs []*kops.InstanceGroup) { c.Unmodeled = kops.Unmodeled{tc.field} })
			_, err := readFacts(ctx)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}
