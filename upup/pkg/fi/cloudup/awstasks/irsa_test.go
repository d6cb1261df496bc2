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

package awstasks

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"k8s.io/kops/upup/pkg/fi"
	"k8s.io/kops/upup/pkg/fi/cloudup/terraform"
	"k8s.io/kops/upup/pkg/fi/cloudup/terraform/tfverify"
)

func webIdentityRole(provider string) *IAMRole {
	return &IAMRole{
		Name: "dns-controller.kube-system.sa.a.example.com",
		AssumeRolePolicy: &PolicyDocument{Version: PolicyVersion, Statement: []Statement{{
			Effect: "Allow", Action: []string{"sts:AssumeRoleWithWebIdentity"}, Principal: &Principal{Federated: OIDCProviderARN},
			Condition: map[string]map[string][]string{"StringEquals": {"d.example.com/a:sub": {"system:serviceaccount:kube-system:dns-controller"}}},
		}}},
		ExportAs:    "kube-system-dns-controller",
		WebIdentity: &WebIdentity{Issuer: "https://d.example.com/a", Provider: provider},
	}
}

func renderFiles(t *testing.T, tasks ...terraform.Renderer) map[string][]byte {
	t.Helper()
	target := terraform.NewTarget(terraform.Options{ClusterName: "a.example.com", Region: "us-east-2"})
	for _, task := range tasks {
		require.NoError(t, task.RenderTerraform(target))
	}
	files, err := target.Files()
	require.NoError(t, err)
	require.NoError(t, tfverify.Verify(files, terraform.DataDir))
	return files
}

func TestWebIdentityRolePlan(t *testing.T) {
	fields := fieldMap(t, webIdentityRole("a.example.com"))
	assert.Equal(t, "the OIDC provider of https://d.example.com/a (made here)", fields["WebIdentity"])
	assert.Equal(t, "Allow sts:AssumeRoleWithWebIdentity by the OIDC provider if StringEquals d.example.com/a:sub=system:serviceaccount:kube-system:dns-controller",
		fields["AssumeRolePolicy[0]"])
	assert.Equal(t, "the OIDC provider of https://d.example.com/a (existing, looked up by URL)", fieldMap(t, webIdentityRole(""))["WebIdentity"])
}

// The trust policy names the provider this build makes by reference, an existing one by lookup.
func TestWebIdentityRoleTerraform(t *testing.T) {
	provider := &IAMOIDCProvider{Name: "a.example.com", URL: "https://d.example.com/a", ClientIDs: []string{"amazonaws.com", "sts.amazonaws.com"},
		Thumbprints: []string{"t1", "t2"}, Tags: map[string]string{"KubernetesCluster": "a.example.com"}}
	files := renderFiles(t, provider, webIdentityRole("a.example.com"))
	main := string(files[terraform.MainFile])
	assert.Contains(t, main, `resource "aws_iam_openid_connect_provider" "a-example-com" {
  client_id_list = ["amazonaws.com", "sts.amazonaws.com"]
  tags = {
    KubernetesCluster = "a.example.com"
  }
  thumbprint_list = ["t1", "t2"]
  url             = "https://d.example.com/a"
}`)
	assert.Contains(t, main, `assume_role_policy = templatefile("${path.module}/data/aws_iam_role_dns-controller.kube-system.sa.a.example.com_policy", {
    oidc_provider_arn = aws_iam_openid_connect_provider.a-example-com.arn
  })`)
	assert.Contains(t, main, "output \"iam_openid_connect_provider_issuer\" {\n  value = \"d.example.com/a\"\n}")
	assert.Contains(t, main, "output \"kube-system-dns-controller_role_arn\" {\n  value = aws_iam_role.dns-controller-kube-system-sa-a-example-com.arn\n}")
	assert.Contains(t, string(files["data/aws_iam_role_dns-controller.kube-system.sa.a.example.com_policy"]), `"Federated": "${oidc_provider_arn}"`)

	files = renderFiles(t, webIdentityRole(""))
	main = string(files[terraform.MainFile])
	assert.Contains(t, main, "data \"aws_iam_openid_connect_provider\" \"d-example-com-a\" {\n  url = \"https://d.example.com/a\"\n}")
	assert.Contains(t, main, "oidc_provider_arn = data.aws_iam_openid_connect_provider.d-example-com-a.arn")
	assert.NotContains(t, main, "iam_openid_connect_provider_arn", "kops's outputs for the provider only where it is made")
}

func TestPolicyAttachments(t *testing.T) {
	role := &IAMRole{Name: "sa.a.example.com", AssumeRolePolicy: EC2AssumeRolePolicy()}
	a := &IAMRolePolicyAttachment{Name: "external-sa.a.example.com", Role: role.Name,
		PolicyARNs: []string{"arn:aws:iam::123456789012:policy/P1", "arn:aws:iam::aws:policy/ReadOnlyAccess"}}
	change, err := a.Plan(context.Background(), &fi.Context{})
	require.NoError(t, err)
	assert.Contains(t, change.Fields, fi.FieldChange{Name: "PolicyARNs", New: "arn:aws:iam::123456789012:policy/P1, arn:aws:iam::aws:policy/ReadOnlyAccess"})
	main := string(renderFiles(t, role, a)[terraform.MainFile])
	for _, arn := range a.PolicyARNs {
		assert.Contains(t, main, "resource \"aws_iam_role_policy_attachment\" \""+AttachmentName(a.Name, arn)+"\" {\n  policy_arn = \""+arn+"\"\n  role       = aws_iam_role.sa-a-example-com.name\n}")
	}
	// kops's name for its integration test's attachment (tests/integration/update_cluster/irsa).
	assert.Equal(t, "external-myserviceaccount-default-sa-minimal-example-com-3197825879",
		AttachmentName("external-myserviceaccount.default.sa.minimal.example.com", "arn:aws-test:iam::123456789012:policy/UsersManageOwnCredentials"))
}

func TestPermissionsBoundary(t *testing.T) {
	role := &IAMRole{Name: "nodes.a.example.com", AssumeRolePolicy: EC2AssumeRolePolicy(), PermissionsBoundary: "arn:aws:iam::123456789012:policy/boundary"}
	assert.Equal(t, "arn:aws:iam::123456789012:policy/boundary", fieldMap(t, role)["PermissionsBoundary"])
	main := string(renderFiles(t, role)[terraform.MainFile])
	assert.Contains(t, main, `permissions_boundary = "arn:aws:iam::123456789012:policy/boundary"`)
	role.PermissionsBoundary = ""
	assert.NotContains(t, fieldMap(t, role), "PermissionsBoundary")
	assert.NotContains(t, string(renderFiles(t, role)[terraform.MainFile]), "permissions_boundary")
}
