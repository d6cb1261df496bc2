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
	"hash/fnv"
	"strings"

	"k8s.io/kops/upup/pkg/fi"
	"k8s.io/kops/upup/pkg/fi/cloudup/terraform"
)

// IAMRolePolicyAttachment attaches managed policies, by ARN, to a role.
type IAMRolePolicyAttachment struct {
	// Name is kops's: external-<role> for a service account's policies.
	Name       string
	Role       string
	PolicyARNs []string
}

var (
	_ fi.Task            = (*IAMRolePolicyAttachment)(nil)
	_ terraform.Renderer = (*IAMRolePolicyAttachment)(nil)
)

func (a *IAMRolePolicyAttachment) Key() fi.TaskKey {
	return fi.TaskKey{Kind: IAMRolePolicyAttachmentKind, Name: a.Name}
}

func (a *IAMRolePolicyAttachment) Dependencies() []fi.TaskKey {
	return []fi.TaskKey{{Kind: IAMRoleKind, Name: a.Role}}
}

func (a *IAMRolePolicyAttachment) String() string {
	return fmt.Sprintf("IAMRolePolicyAttachment{Name: %q, Role: %q, PolicyARNs: %v}", a.Name, a.Role, a.PolicyARNs)
}

func (a *IAMRolePolicyAttachment) Plan(context.Context, *fi.Context) (*fi.Change, error) {
	return ensure(
		fi.FieldChange{Name: "Name", New: a.Name},
		fi.FieldChange{Name: "Role", New: a.Role},
		fi.FieldChange{Name: "PolicyARNs", New: strings.Join(a.PolicyARNs, ", ")},
	), nil
}

type terraformAttachment struct {
	PolicyARN string             `cty:"policy_arn"`
	Role      *terraform.Literal `cty:"role"`
}

// AttachmentName is kops's terraform name of one attachment: the task's name and the decimal FNV-1a
// hash of the policy's ARN, so that each policy is its own resource.
func AttachmentName(name, policyARN string) string {
	h := fnv.New32a()
	h.Write([]byte(policyARN))
	return fmt.Sprintf("%s-%d", terraform.ResourceName(name), h.Sum32())
}

func (a *IAMRolePolicyAttachment) RenderTerraform(t *terraform.Target) error {
	for _, arn := range a.PolicyARNs {
		err := t.RenderResource("aws_iam_role_policy_attachment", AttachmentName(a.Name, arn), &terraformAttachment{
			PolicyARN: arn,
			Role:      terraform.LiteralProperty("aws_iam_role", terraform.ResourceName(a.Role), "name"),
		})
		if err != nil {
			return fmt.Errorf("IAMRolePolicyAttachment %s: %w", a.Name, err)
		}
	}
	return nil
}
