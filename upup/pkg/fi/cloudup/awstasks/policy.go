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
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"k8s.io/kops/upup/pkg/fi"
)

const PolicyVersion = "2012-10-17"

// PolicyDocument's fields are alphabetical so the JSON reads like kops's data files.
type PolicyDocument struct {
	Statement []Statement `json:"Statement"`
	Version   string      `json:"Version"`
}

type Statement struct {
	Action []string `json:"Action"`
	// Condition is operator -> key -> values; every key must match, any of its values.
	Condition map[string]map[string][]string `json:"Condition,omitempty"`
	Effect    string                         `json:"Effect"`
	Principal *Principal                     `json:"Principal,omitempty"`
	Resource  []string                       `json:"Resource,omitempty"`
	// Sid is a user's statement's ID (an inline policy's), kept as written.
	Sid string `json:"Sid,omitempty"`
}

// Principal is a service (ec2.amazonaws.com) or a federated identity provider's ARN.
type Principal struct {
	Federated string `json:"Federated,omitempty"`
	Service   string `json:"Service,omitempty"`
}

// OIDCProviderARN stands for the ARN of the OIDC provider a role with a WebIdentity trusts: the ARN
// holds the account ID, which only the apply knows (terraform fills it in from the provider).
const OIDCProviderARN = "${" + oidcProviderVariable + "}"

// oidcProviderVariable is the templatefile() variable OIDCProviderARN names in terraform.
const oidcProviderVariable = "oidc_provider_arn"

// JSON is indented with a trailing newline; the bytes depend only on the content.
func (d *PolicyDocument) JSON() ([]byte, error) {
	b, err := json.MarshalIndent(d, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("encoding IAM policy: %w", err)
	}
	return append(b, '\n'), nil
}

func EC2AssumeRolePolicy() *PolicyDocument {
	return &PolicyDocument{Version: PolicyVersion, Statement: []Statement{{
		Action:    []string{"sts:AssumeRole"},
		Effect:    "Allow",
		Principal: &Principal{Service: "ec2.amazonaws.com"},
	}}}
}

// Summary is the statement on one line, for reports.
func (s *Statement) Summary() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s", s.Effect, strings.Join(s.Action, ","))
	if p := s.Principal; p != nil {
		switch {
		case p.Federated == OIDCProviderARN:
			b.WriteString(" by the OIDC provider")
		case p.Federated != "":
			fmt.Fprintf(&b, " by %s", p.Federated)
		default:
			fmt.Fprintf(&b, " by %s", p.Service)
		}
	}
	if len(s.Resource) > 0 {
		fmt.Fprintf(&b, " on %s", strings.Join(s.Resource, ","))
	}
	b.WriteString(s.ConditionSummary())
	return b.String()
}

func (s *Statement) ConditionSummary() string {
	var b strings.Builder
	ops := make([]string, 0, len(s.Condition))
	for op := range s.Condition {
		ops = append(ops, op)
	}
	sort.Strings(ops)
	for _, op := range ops {
		keys := make([]string, 0, len(s.Condition[op]))
		for k := range s.Condition[op] {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			fmt.Fprintf(&b, " if %s %s=%s", op, k, strings.Join(s.Condition[op][k], "|"))
		}
	}
	return b.String()
}

func (d *PolicyDocument) fields(prefix string) []fi.FieldChange {
	out := make([]fi.FieldChange, 0, len(d.Statement))
	for i := range d.Statement {
		out = append(out, fi.FieldChange{Name: fmt.Sprintf("%s[%d]", prefix, i), New: d.Statement[i].Summary()})
	}
	return out
}
