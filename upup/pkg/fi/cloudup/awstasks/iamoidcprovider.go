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
	"strings"

	"k8s.io/kops/upup/pkg/fi"
	"k8s.io/kops/upup/pkg/fi/cloudup/terraform"
)

// IAMOIDCProvider lets IAM trust the tokens of a cluster's service-account issuer (IRSA).
type IAMOIDCProvider struct {
	Name string
	// URL is the issuer, https://<host>/<path>.
	URL string
	// ClientIDs are the audiences a token may be for.
	ClientIDs []string
	// Thumbprints are of the certificate authorities IAM accepts for URL's TLS.
	Thumbprints []string
	Tags        map[string]string
}

var (
	_ fi.Task            = (*IAMOIDCProvider)(nil)
	_ terraform.Renderer = (*IAMOIDCProvider)(nil)
)

func (p *IAMOIDCProvider) Key() fi.TaskKey {
	return fi.TaskKey{Kind: IAMOIDCProviderKind, Name: p.Name}
}

func (p *IAMOIDCProvider) Dependencies() []fi.TaskKey { return nil }

func (p *IAMOIDCProvider) String() string {
	return fmt.Sprintf("IAMOIDCProvider{Name: %q, URL: %q, ClientIDs: %v, Tags: {%s}}", p.Name, p.URL, p.ClientIDs, formatTags(p.Tags))
}

func (p *IAMOIDCProvider) Plan(context.Context, *fi.Context) (*fi.Change, error) {
	return ensure(
		fi.FieldChange{Name: "Name", New: p.Name},
		fi.FieldChange{Name: "URL", New: p.URL},
		fi.FieldChange{Name: "ClientIDs", New: strings.Join(p.ClientIDs, ", ")},
		fi.FieldChange{Name: "Thumbprints", New: strings.Join(p.Thumbprints, ", ")},
		fi.FieldChange{Name: "Tags", New: formatTags(p.Tags)},
	), nil
}

type terraformIAMOIDCProvider struct {
	ClientIDList   []string          `cty:"client_id_list"`
	Tags           map[string]string `cty:"tags"`
	ThumbprintList []string          `cty:"thumbprint_list"`
	URL            string            `cty:"url"`
}

// RenderTerraform writes the provider and kops's outputs for it: its ARN and the issuer without
// its scheme (the prefix of the condition keys in trust policies).
func (p *IAMOIDCProvider) RenderTerraform(t *terraform.Target) error {
	name := terraform.ResourceName(p.Name)
	outputs := map[string]*terraform.Literal{
		"iam_openid_connect_provider_arn":    terraform.LiteralProperty("aws_iam_openid_connect_provider", name, "arn"),
		"iam_openid_connect_provider_issuer": terraform.LiteralString(strings.TrimPrefix(p.URL, "https://")),
	}
	for output, value := range outputs {
		if err := t.AddOutput(output, value); err != nil {
			return fmt.Errorf("IAMOIDCProvider %s: %w", p.Name, err)
		}
	}
	return t.RenderResource("aws_iam_openid_connect_provider", name, &terraformIAMOIDCProvider{
		ClientIDList:   append([]string(nil), p.ClientIDs...),
		Tags:           cloneTags(p.Tags),
		ThumbprintList: append([]string(nil), p.Thumbprints...),
		URL:            p.URL,
	})
}
