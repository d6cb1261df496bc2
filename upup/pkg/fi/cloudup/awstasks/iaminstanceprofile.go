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

type IAMInstanceProfile struct {
	Name string
	Role string
	Tags map[string]string
}

var (
	_ fi.Task            = (*IAMInstanceProfile)(nil)
	_ terraform.Renderer = (*IAMInstanceProfile)(nil)
)

func (p *IAMInstanceProfile) Key() fi.TaskKey {
	return fi.TaskKey{Kind: IAMInstanceProfileKind, Name: p.Name}
}

func (p *IAMInstanceProfile) Dependencies() []fi.TaskKey {
	return []fi.TaskKey{{Kind: IAMRoleKind, Name: p.Role}}
}

func (p *IAMInstanceProfile) String() string {
	return fmt.Sprintf("IAMInstanceProfile{Name: %q, Role: %q, Tags: {%s}}", p.Name, p.Role, formatTags(p.Tags))
}

func (p *IAMInstanceProfile) Plan(context.Context, *fi.Context) (*fi.Change, error) {
	return ensure(
		fi.FieldChange{Name: "Name", New: p.Name},
		fi.FieldChange{Name: "Role", New: p.Role},
		fi.FieldChange{Name: "Tags", New: formatTags(p.Tags)},
	), nil
}

func (p *IAMInstanceProfile) TerraformResourceName() string { return terraform.ResourceName(p.Name) }

type terraformIAMInstanceProfile struct {
	Name string             `cty:"name"`
	Role *terraform.Literal `cty:"role"`
	Tags map[string]string  `cty:"tags"`
}

func (p *IAMInstanceProfile) RenderTerraform(t *terraform.Target) error {
	return t.RenderResource("aws_iam_instance_profile", p.TerraformResourceName(), &terraformIAMInstanceProfile{
		Name: p.Name,
		Role: terraform.LiteralProperty("aws_iam_role", terraform.ResourceName(p.Role), "name"),
		Tags: cloneTags(p.Tags),
	})
}
