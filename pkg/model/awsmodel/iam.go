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
	"fmt"
	"strings"

	"k8s.io/kops/pkg/apis/kops"
	"k8s.io/kops/pkg/model"
	"k8s.io/kops/upup/pkg/fi"
	"k8s.io/kops/upup/pkg/fi/cloudup/awstasks"
)

type IAMModelBuilder struct {
	Context *model.KopsModelContext
}

var _ model.Builder = (*IAMModelBuilder)(nil)

func (b *IAMModelBuilder) Build(c *fi.ModelBuilderContext) error {
	facts, err := readFacts(b.Context)
	if err != nil {
		return err
	}
	done := map[string]bool{}
	for _, ig := range b.Context.InstanceGroups {
		// A group that brings its own instance profile gets no role or profile of ours, as with kops.
		if arn, _, err := groupProfile(ig); err != nil || arn != "" {
			if err != nil {
				return err
			}
			continue
		}
		name, err := iamName(b.Context, ig.Spec.Role)
		if err != nil {
			return fmt.Errorf("instance group %q: %w", ig.Name, err)
		}
		if done[name] {
			continue
		}
		done[name] = true
		if err := b.addRole(c, facts, name, ig.Spec.Role); err != nil {
			return err
		}
	}
	return b.addServiceAccountRoles(c, facts, done)
}

// addServiceAccountRoles makes kops's OIDC provider and a role per service account that has one
// (IRSA): trusted by the provider for that account's tokens, with the account's rights.
func (b *IAMModelBuilder) addServiceAccountRoles(c *fi.ModelBuilderContext, facts *clusterFacts, names map[string]bool) error {
	irsa := facts.irsa
	cluster := b.Context.Cluster.Name
	var provider string
	if irsa.provider {
		provider = cluster
		if err := c.AddTask(&awstasks.IAMOIDCProvider{Name: provider, URL: irsa.issuer, ClientIDs: irsa.audiences,
			Thumbprints: oidcThumbprints, Tags: clusterTags(b.Context)}); err != nil {
			return err
		}
	}
	for _, sa := range facts.serviceAccountRoles() {
		name := saRoleName(cluster, sa.namespace, sa.name)
		if names[name] {
			return fmt.Errorf("%s: the role of service account %s/%s, %s, is another's too; name another service account", sa.what, sa.namespace, sa.name, name)
		}
		names[name] = true
		tags := clusterTags(b.Context)
		tags[tagServiceAccountName] = sa.name
		tags[tagServiceAccountNamespace] = strings.ReplaceAll(sa.namespace, "*", "wildcard")
		tasks := []fi.Task{&awstasks.IAMRole{
			Name: name,
			AssumeRolePolicy: &awstasks.PolicyDocument{Version: awstasks.PolicyVersion, Statement: []awstasks.Statement{{
				Action:    []string{"sts:AssumeRoleWithWebIdentity"},
				Condition: irsa.trust(sa.namespace, sa.name),
				Effect:    "Allow",
				Principal: &awstasks.Principal{Federated: awstasks.OIDCProviderARN},
			}}},
			Tags:                tags,
			ExportAs:            saRoleKey(sa.namespace, sa.name),
			PermissionsBoundary: facts.permissionsBoundary,
			WebIdentity:         &awstasks.WebIdentity{Issuer: irsa.issuer, Provider: provider},
		}}
		if sa.policy != nil {
			tasks = append(tasks, &awstasks.IAMRolePolicy{Name: name, Role: name, PolicyDocument: sa.policy})
		}
		if len(sa.policyARNs) > 0 {
			tasks = append(tasks, &awstasks.IAMRolePolicyAttachment{Name: "external-" + name, Role: name, PolicyARNs: sa.policyARNs})
		}
		for _, t := range tasks {
			if err := c.AddTask(t); err != nil {
				return err
			}
		}
	}
	return nil
}

func (b *IAMModelBuilder) addRole(c *fi.ModelBuilderContext, facts *clusterFacts, name string, role kops.InstanceGroupRole) error {
	kind, err := roleKind(role)
	if err != nil {
		return err
	}
	tasks := []fi.Task{
		&awstasks.IAMRole{Name: name, AssumeRolePolicy: awstasks.EC2AssumeRolePolicy(), Tags: clusterTags(b.Context), ExportAs: kind,
			PermissionsBoundary: facts.permissionsBoundary},
		&awstasks.IAMInstanceProfile{Name: name, Role: name, Tags: clusterTags(b.Context)},
	}
	if doc := policy(facts.grantsFor(role)); doc != nil {
		tasks = append(tasks, &awstasks.IAMRolePolicy{Name: name, Role: name, PolicyDocument: doc})
	}
	// kops's name for the attachments is the role's kind in the singular: master-policyoverride.
	if arns := facts.externalPolicies[kind]; len(arns) > 0 {
		tasks = append(tasks, &awstasks.IAMRolePolicyAttachment{Name: strings.TrimSuffix(kind, "s") + "-policyoverride", Role: name, PolicyARNs: arns})
	}
	// The user's own statements (spec.additionalPolicies), as written, in kops's further inline policy.
	if statements := facts.additionalPolicies[kind]; len(statements) > 0 {
		tasks = append(tasks, &awstasks.IAMRolePolicy{Name: additionalPolicyName(name), Role: name,
			PolicyDocument: &awstasks.PolicyDocument{Version: awstasks.PolicyVersion, Statement: statements}})
	}
	for _, t := range tasks {
		if err := c.AddTask(t); err != nil {
			return err
		}
	}
	return nil
}

// Warnings are what a user should know before the AWS objects are built; options this build cannot
// honour are errors from Build instead.
func Warnings(ctx *model.KopsModelContext) ([]string, error) {
	if ctx.Cluster.Spec.CloudProvider != "aws" {
		return nil, nil
	}
	facts, err := readFacts(ctx)
	if err != nil {
		return nil, err
	}
	var out []string
	if facts.dnsWarning != "" {
		out = append(out, facts.dnsWarning)
	}
	for _, g := range facts.warmPoolGroups {
		out = append(out, warmPoolWarning(g))
	}
	for _, ig := range ctx.InstanceGroups {
		if !canBoot(ig, ctx.Nodeup) {
			out = append(out, noBootstrapWarning(ctx.Cluster.Name, ig))
		}
	}
	return out, nil
}
