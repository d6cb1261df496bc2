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
	"fmt"

	"k8s.io/kops/upup/pkg/fi"
	"k8s.io/kops/upup/pkg/fi/cloudup/terraform"
)

type IAMRolePolicy struct {
	Name           string
	Role           string
	PolicyDocument *PolicyDocument
}

var (
	_ fi.Task            = (*IAMRolePolicy)(nil)
	_ terraform.Renderer = (*IAMRolePolicy)(nil)
)

func (p *IAMRolePolicy) Key() fi.TaskKey { return fi.TaskKey{Kind: IAMRolePolicyKind, Name: p.Name} }

func (p *IAMRolePolicy) Dependencies() []fi.TaskKey {
	return []fi.TaskKey{{Kind: IAMRoleKind, Name: p.Role}}
}

func (p *IAMRolePolicy) String() string {
	return fmt.Sprintf("IAMRolePolicy{Name: %q, Role: %q, PolicyDocument: %d statements}", p.Name, p.Role, len(p.PolicyDocument.Statement))
}

// Plan shows one statement per field: a reviewer must see what is granted, not a hash of it.
func (p *IAMRolePolicy) Plan(context.Context, *fi.Context) (*fi.Change, error) {
	fields := []fi.FieldChange{{Name: "Name", New: p.Name}, {Name: "Role", New: p.Role}}
	return ensure(append(fields, p.PolicyDocument.fields("Statement")...)...), nil
}

type terraformIAMRolePolicy struct {
	Name   string             `cty:"name"`
	Policy *terraform.Literal `cty:"policy"`
	Role   *terraform.Literal `cty:"role"`
}

func (p *IAMRolePolicy) RenderTerraform(t *terraform.Target) error {
	doc, err := p.PolicyDocument.JSON()
	if err != nil {
		return fmt.Errorf("IAMRolePolicy %s: %w", p.Name, err)
	}
	policy, err := t.AddFile("aws_iam_role_policy", p.Name, "policy", doc, false)
	if err != nil {
		return fmt.Errorf("IAMRolePolicy %s: %w", p.Name, err)
	}
	return t.RenderResource("aws_iam_role_policy", terraform.ResourceName(p.Name), &terraformIAMRolePolicy{
		Name:   p.Name,
		Policy: policy,
		Role:   terraform.LiteralProperty("aws_iam_role", terraform.ResourceName(p.Role), "name"),
	})
}
