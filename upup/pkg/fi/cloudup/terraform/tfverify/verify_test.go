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

package tfverify

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestVerify(t *testing.T) {
	const profile = "resource \"aws_iam_instance_profile\" \"p\" {\n  name = \"p\"\n}\n"
	tests := []struct {
		name  string
		files map[string]string
		want  []string // substrings of the error; none means valid
	}{
		{"references, locals, object keys and data files that resolve", map[string]string{
			"kubernetes.tf": profile + `locals {
  region = "us-east-2"
}
provider "aws" {
  region = local.region
}
resource "aws_launch_template" "n" {
  iam_instance_profile {
    name = aws_iam_instance_profile.p.id
  }
  tags      = { KubernetesCluster = "a" }
  user_data = filebase64("${path.module}/data/u")
}
`, "data/u": "x"}, nil},
		{"every problem at once", map[string]string{
			"kubernetes.tf": `resource "aws_launch_template" "n" {
  a = aws_iam_instance_profile.missing.id
  b = local.nothing
  c = var.x
  d = file("${path.module}/data/absent")
  e = file("${path.module}/data/${var.x}")
}
`, "data/orphan": "x"}, []string{
			"reference to aws_iam_instance_profile.missing, which is not defined",
			"reference to local.nothing, which is not defined",
			"reference to var.x, which is not defined",
			`file("data/absent"): no such data file`,
			"file() needs a path built from path.module only",
			"data/orphan is not read by any resource",
		}},
		{"a template file whose variables are set", map[string]string{
			"kubernetes.tf": profile + `resource "aws_iam_role" "r" {
  assume_role_policy = templatefile("${path.module}/data/t", { arn = aws_iam_instance_profile.p.arn })
}
`, "data/t": `{"Federated": "${arn}", "Literal": "$${not.a.variable}"}`}, nil},
		{"a template file with a variable not set, one that does not parse, and one missing", map[string]string{
			"kubernetes.tf": `resource "aws_iam_role" "r" {
  a = templatefile("${path.module}/data/t", { arn = "x" })
  b = templatefile("${path.module}/data/bad", { arn = "x" })
  c = templatefile("${path.module}/data/absent", { arn = "x" })
  d = templatefile("${path.module}/data/t")
}
`, "data/t": `{"Federated": "${arn}", "Other": "${account}"}`, "data/bad": `${`}, []string{
			"data/t uses account, which templatefile() does not set",
			"data/bad:",
			`templatefile("data/absent"): no such data file`,
			"templatefile() takes a path and an object",
		}},
		{"syntax error", map[string]string{"kubernetes.tf": "resource \"a\" {\n"}, []string{"kubernetes.tf:"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			files := map[string][]byte{}
			for k, v := range tc.files {
				files[k] = []byte(v)
			}
			err := Verify(files, "data")
			if len(tc.want) == 0 {
				assert.NoError(t, err)
				return
			}
			if assert.Error(t, err) {
				for _, w := range tc.want {
					assert.Contains(t, err.Error(), w)
				}
			}
		})
	}
}
