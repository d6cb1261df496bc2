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

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestUpdateClusterAdditionalPolicies: the user's own statements are shown in the dry run, listed
// as not applied with --yes and written to terraform as kops's aws_iam_role_policy additional.<role>.
func TestUpdateClusterAdditionalPolicies(t *testing.T) {
	const name = "policies.example.com"
	c := newCLI(t)
	c.mustRun("create", "-f", filepath.Join(kopsSpecsDir, "aws-additional-policies.yaml"))

	r := c.mustRun("update", "cluster", name)
	assert.Contains(t, r.stdout, "  IAMRolePolicy/additional.nodes."+name+"\n")
	assert.Contains(t, r.stdout, "Allow s3:GetObject on arn:aws:s3:::app-assets/*\n")
	assert.Contains(t, r.stdout, "  IAMRolePolicy/additional.masters."+name+"\n", "master is the control plane")
	assert.Contains(t, r.stdout, "Allow dynamodb:* on *\n", "the user's wildcard is written as asked")
	assert.NotContains(t, r.stdout, "IAMRolePolicy/additional.bastions.")

	r = c.mustRun("update", "cluster", name, "--yes")
	require.Contains(t, r.stdout, "NOT APPLIED")
	notApplied := r.stdout[strings.Index(r.stdout, "NOT APPLIED"):]
	assert.Contains(t, notApplied, "  IAMRolePolicy/additional.nodes."+name+"\n")
	assert.Contains(t, notApplied, "  IAMRolePolicy/additional.masters."+name+"\n")

	out := t.TempDir()
	c.mustRun("update", "cluster", name, "--target", "terraform", "--out", out, "--yes")
	tf, err := os.ReadFile(filepath.Join(out, "kubernetes.tf"))
	require.NoError(t, err)
	assert.Contains(t, string(tf), `resource "aws_iam_role_policy" "additional-nodes-policies-example-com" {
  name   = "additional.nodes.policies.example.com"
  policy = file("${path.module}/data/aws_iam_role_policy_additional.nodes.policies.example.com_policy")
  role   = aws_iam_role.nodes-policies-example-com.name
}`)
	policy, err := os.ReadFile(filepath.Join(out, "data", "aws_iam_role_policy_additional.masters.policies.example.com_policy"))
	require.NoError(t, err)
	assert.JSONEq(t, `{"Version": "2012-10-17", "Statement": [{"Sid": "Tables", "Effect": "Allow", "Action": ["dynamodb:*"], "Resource": ["*"]}]}`, string(policy))
}

// TestUpdateClusterRefusesBadAdditionalPolicies: a statement kops would not write as given stops
// every update, naming the key and the statement, and no terraform is written.
func TestUpdateClusterRefusesBadAdditionalPolicies(t *testing.T) {
	const name = "policies.example.com"
	spec, err := os.ReadFile(filepath.Join(kopsSpecsDir, "aws-additional-policies.yaml"))
	require.NoError(t, err)
	bad := strings.Replace(string(spec), `"Action": ["s3:GetObject"],`, `"NotAction": ["s3:GetObject"],`, 1)
	require.NotEqual(t, string(spec), bad)
	path := filepath.Join(t.TempDir(), "bad.yaml")
	require.NoError(t, os.WriteFile(path, []byte(bad), 0o644))

	c := newCLI(t)
	c.mustRun("create", "-f", path)
	out := t.TempDir()
	for _, args := range [][]string{{}, {"--yes"}, {"--target", "terraform", "--out", out, "--yes"}} {
		r := c.run(append([]string{"update", "cluster", name}, args...)...)
		assert.Equal(t, 1, r.code, "%v", args)
		assert.Contains(t, r.stderr, "spec.additionalPolicies.node[0].NotAction: is not supported", "%v", args)
	}
	assert.NoFileExists(t, filepath.Join(out, "kubernetes.tf"))
}
