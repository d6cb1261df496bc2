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
	"regexp"
	"strings"
	"sync"

	"k8s.io/kops/upup/pkg/fi"
	"k8s.io/kops/upup/pkg/fi/cloudup/terraform"
)

type IAMRole struct {
	Name             string
	AssumeRolePolicy *PolicyDocument
	Tags             map[string]string
	// ExportAs names the terraform outputs <ExportAs>_role_arn and _role_name as kops does; empty for none.
	ExportAs string
	// WebIdentity is set for a role that service accounts assume (IRSA): AssumeRolePolicy's principal
	// is then OIDCProviderARN.
	WebIdentity *WebIdentity
	// PermissionsBoundary is the ARN of the managed policy that bounds the role's rights; empty for none.
	PermissionsBoundary string
}

// WebIdentity is the OIDC provider a role's trust policy names.
type WebIdentity struct {
	// Issuer is the service-account issuer (https://...), the provider's URL.
	Issuer string
	// Provider is the IAMOIDCProvider task that makes the provider; empty when it exists already, and
	// terraform looks it up by Issuer.
	Provider string
}

var (
	_ fi.Task            = (*IAMRole)(nil)
	_ terraform.Renderer = (*IAMRole)(nil)
)

func (r *IAMRole) Key() fi.TaskKey { return fi.TaskKey{Kind: IAMRoleKind, Name: r.Name} }

func (r *IAMRole) Dependencies() []fi.TaskKey {
	if r.WebIdentity != nil && r.WebIdentity.Provider != "" {
		return []fi.TaskKey{{Kind: IAMOIDCProviderKind, Name: r.WebIdentity.Provider}}
	}
	return nil
}

func (r *IAMRole) String() string {
	return fmt.Sprintf("IAMRole{Name: %q, AssumeRolePolicy: %d statements, Tags: {%s}}", r.Name, len(r.AssumeRolePolicy.Statement), formatTags(r.Tags))
}

func (r *IAMRole) Plan(context.Context, *fi.Context) (*fi.Change, error) {
	fields := []fi.FieldChange{{Name: "Name", New: r.Name}}
	if w := r.WebIdentity; w != nil {
		how := "made here"
		if w.Provider == "" {
			how = "existing, looked up by URL"
		}
		fields = append(fields, fi.FieldChange{Name: "WebIdentity", New: fmt.Sprintf("the OIDC provider of %s (%s)", w.Issuer, how)})
	}
	fields = append(fields, r.AssumeRolePolicy.fields("AssumeRolePolicy")...)
	if r.PermissionsBoundary != "" {
		fields = append(fields, fi.FieldChange{Name: "PermissionsBoundary", New: r.PermissionsBoundary})
	}
	fields = append(fields, fi.FieldChange{Name: "Tags", New: formatTags(r.Tags)})
	return ensure(fields...), nil
}

func (r *IAMRole) TerraformResourceName() string { return terraform.ResourceName(r.Name) }

type terraformIAMRole struct {
	Name                string             `cty:"name"`
	AssumeRolePolicy    *terraform.Literal `cty:"assume_role_policy"`
	PermissionsBoundary string             `cty:"permissions_boundary"`
	Tags                map[string]string  `cty:"tags"`
}

func (r *IAMRole) RenderTerraform(t *terraform.Target) error {
	doc, err := r.AssumeRolePolicy.JSON()
	if err != nil {
		return fmt.Errorf("IAMRole %s: %w", r.Name, err)
	}
	var policy *terraform.Literal
	if r.WebIdentity == nil {
		policy, err = t.AddFile("aws_iam_role", r.Name, "policy", doc, false)
	} else {
		var arn *terraform.Literal
		if arn, err = r.WebIdentity.providerARN(t); err == nil {
			policy, err = t.AddTemplateFile("aws_iam_role", r.Name, "policy", doc, oidcProviderVariable, arn)
		}
	}
	if err != nil {
		return fmt.Errorf("IAMRole %s: %w", r.Name, err)
	}
	if r.ExportAs != "" {
		for output, attr := range map[string]string{r.ExportAs + "_role_arn": "arn", r.ExportAs + "_role_name": "name"} {
			if err := t.AddOutput(output, terraform.LiteralProperty("aws_iam_role", r.TerraformResourceName(), attr)); err != nil {
				return fmt.Errorf("IAMRole %s: %w", r.Name, err)
			}
		}
	}
	return t.RenderResource("aws_iam_role", r.TerraformResourceName(),
		&terraformIAMRole{Name: r.Name, AssumeRolePolicy: policy, PermissionsBoundary: r.PermissionsBoundary, Tags: cloneTags(r.Tags)})
}

// providerARN refers to the provider this build makes, or looks an existing one up by its URL.
func (w *WebIdentity) providerARN(t *terraform.Target) (*terraform.Literal, error) {
	if w.Provider != "" {
		return terraform.LiteralProperty("aws_iam_openid_connect_provider", terraform.ResourceName(w.Provider), "arn"), nil
	}
	name := lookupName(strings.TrimPrefix(w.Issuer, "https://"))
	if err := t.RenderDataSource("aws_iam_openid_connect_provider", name, &terraformOIDCProviderLookup{URL: w.Issuer}); err != nil {
		return nil, err
	}
	return terraform.LiteralDataProperty("aws_iam_openid_connect_provider", name, "arn"), nil
}

type terraformOIDCProviderLookup struct {
	URL string `cty:"url"`
}

var notInLabel = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[^A-Za-z0-9_-]+`) })

// lookupName turns an issuer's host and path into a terraform name: discovery.example.com/a becomes
// discovery-example-com-a.
func lookupName(hostPath string) string {
	return strings.Trim(notInLabel().ReplaceAllString(hostPath, "-"), "-")
}
