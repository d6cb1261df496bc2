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

package kopsmodel

import (
	"maps"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

	"k8s.io/kops/pkg/addons/coredns"
)

// The CRD kops renders is its own: one version, served and stored, with the status subresource
// and kops's columns, and kops's names: no short name (a tampered package once claimed po) and no
// category (all would list CoreDNS objects in kubectl get all).
func TestCustomResourceDefinition(t *testing.T) {
	crd, err := CustomResourceDefinition()
	require.NoError(t, err)
	assert.Equal(t, "apiextensions.k8s.io/v1", crd.APIVersion)
	assert.Equal(t, "CustomResourceDefinition", crd.Kind)
	assert.Equal(t, coredns.CRDName, crd.Name)
	assert.Equal(t, map[string]string{"app.kubernetes.io/name": coredns.Names().DeploymentName, "app.kubernetes.io/managed-by": "kops"}, crd.Labels)
	assert.Empty(t, crd.Annotations)
	assert.Equal(t, coredns.CRDGroup, crd.Spec.Group)
	assert.Equal(t, apiextensionsv1.CustomResourceDefinitionNames{
		Kind: "CoreDNS", ListKind: "CoreDNSList", Plural: coredns.CRDResource, Singular: "coredns",
	}, crd.Spec.Names)
	assert.Equal(t, apiextensionsv1.NamespaceScoped, crd.Spec.Scope)
	assert.Nil(t, crd.Spec.Conversion, "no conversion webhook: there is one version")
	assert.False(t, crd.Spec.PreserveUnknownFields)
	require.Len(t, crd.Spec.Versions, 1)
	v := crd.Spec.Versions[0]
	assert.Equal(t, "v1alpha1", v.Name)
	assert.Equal(t, coredns.APIVersion, coredns.CRDGroup+"/"+v.Name)
	assert.True(t, v.Served)
	assert.True(t, v.Storage)
	assert.False(t, v.Deprecated)
	assert.Empty(t, v.SelectableFields)
	require.NotNil(t, v.Subresources)
	assert.NotNil(t, v.Subresources.Status)
	assert.Nil(t, v.Subresources.Scale)
	assert.Equal(t, []apiextensionsv1.CustomResourceColumnDefinition{
		{Name: "Version", Type: "string", JSONPath: ".spec.version"},
		{Name: "Healthy", Type: "boolean", JSONPath: ".status.healthy"},
		{Name: "Age", Type: "date", JSONPath: ".metadata.creationTimestamp"},
	}, v.AdditionalPrinterColumns)
	require.NotNil(t, v.Schema)
	require.NotNil(t, v.Schema.OpenAPIV3Schema)
	root := v.Schema.OpenAPIV3Schema
	assert.Equal(t, "object", root.Type)
	checkCoreDNSSchema(t, root)

	status := root.Properties["status"]
	assert.Equal(t, "object", status.Type)
	assert.Equal(t, "boolean", status.Properties["healthy"].Type)
	assert.Equal(t, "string", status.Properties["phase"].Type)
	assert.Equal(t, "array", status.Properties["errors"].Type)
	require.NotNil(t, status.Properties["errors"].Items)
	assert.Equal(t, "string", status.Properties["errors"].Items.Schema.Type)
	conditions := status.Properties["conditions"]
	require.NotNil(t, conditions.XListType)
	assert.Equal(t, "map", *conditions.XListType)
	assert.Equal(t, []string{"type"}, conditions.XListMapKeys)
	assert.Equal(t, []string{"type", "status", "lastTransitionTime", "reason", "message"}, conditions.Items.Schema.Required)
	assert.Equal(t, "date-time", conditions.Items.Schema.Properties["lastTransitionTime"].Format)
}

// checkCoreDNSSchema checks that the CoreDNS CRD says exactly what it accepts: typed and bounded
// fields, nothing preserved that it does not declare, the fields kops no longer sets refused.
// tests/e2e/operator sends the same values to a real API server; this catches a drift early.
func checkCoreDNSSchema(t *testing.T, root *apiextensionsv1.JSONSchemaProps) {
	t.Helper()
	walkSchema(t, "", root)
	assert.Equal(t, []string{"spec"}, root.Required)
	assert.Equal(t, []string{"self.metadata.name == 'coredns'"}, ruleTexts(root.XValidations))

	spec := root.Properties["spec"]
	assert.Equal(t, "object", spec.Type)
	assert.ElementsMatch(t, []string{"version", "image", "dnsDomain", "dnsIP", "corefile", "corefileChecksum"}, spec.Required)
	assert.Equal(t, []string{"channel", "corefile", "corefileChecksum", "dnsDomain", "dnsIP", "image", "patches", "version"}, slices.Sorted(maps.Keys(spec.Properties)))
	forbidden := map[string]string{}
	for _, r := range spec.XValidations {
		forbidden[r.FieldPath] = r.Rule
		require.NotNil(t, r.Reason, r.Rule)
		assert.Equal(t, apiextensionsv1.FieldValueForbidden, *r.Reason, r.Rule)
	}
	assert.Equal(t, map[string]string{".channel": "!has(self.channel)", ".patches": "!has(self.patches)"}, forbidden,
		"channel and patches are declared only to be refused in every field validation mode")

	dnsIP := spec.Properties["dnsIP"]
	assert.Empty(t, dnsIP.Format, "a format such as ipv4 would reject IPv6 service IPs")
	assert.Equal(t, []string{"isIP(self)"}, ruleTexts(dnsIP.XValidations))
	corefile := spec.Properties["corefile"]
	require.NotNil(t, corefile.MaxLength)
	assert.EqualValues(t, 65536, *corefile.MaxLength, "characters; the rule below counts bytes")
	assert.Equal(t, []string{"bytes(self).size() <= 65536"}, ruleTexts(corefile.XValidations))
	assert.Equal(t, []string{"!self.endsWith(':latest')"}, ruleTexts(spec.Properties["image"].XValidations))

	for name, values := range map[string]struct{ accepted, rejected []string }{
		"corefileChecksum": {
			accepted: []string{coredns.CorefileChecksum(coredns.Corefile(nil)), strings.Repeat("0", 64)},
			rejected: []string{strings.Repeat("A", 64), strings.Repeat("0", 63), strings.Repeat("0", 65), "sha256:" + strings.Repeat("0", 64), strings.Repeat("0", 64) + "\n", ""},
		},
		"version": {
			accepted: []string{"1.12.4", "0.3.0-alpha.1", "1.13.1+build.7", "10.0.0"},
			rejected: []string{"../../../../etc/passwd", "1.12", "v1.12.4", "01.2.3", "1.2.3-", "1.2.3\n", "latest"},
		},
		"dnsDomain": {
			accepted: []string{"cluster.local", "corp.internal", "a", "k8s-1.example.com"},
			rejected: []string{"cluster.local\n}\n. {\n", "cluster.local {", "Cluster.Local", "-a.b", "a..b", "a.b.", ""},
		},
		"image": {
			accepted: []string{
				"registry.k8s.io/coredns/coredns:v1.12.4",
				"proxy.example.com/registry.k8s.io/coredns/coredns:v1.12.4",
				"registry.example.com:5000/mirror/coredns/coredns:v1.12.4",
				"[fd00::1]:5000/coredns/coredns:v1.12.4",
				"localhost/coredns:1.12.4",
				"coredns/coredns:1.12.4",
				"registry.k8s.io/coredns/coredns@sha256:" + strings.Repeat("ab", 32),
				"registry.k8s.io/coredns/coredns:v1.12.4@sha256:" + strings.Repeat("0f", 32),
			},
			rejected: []string{
				"registry.k8s.io/coredns/coredns", // no tag: whatever is pushed next
				"registry.k8s.io/coredns/coredns@sha256:abc",
				"registry.k8s.io/CoreDNS/coredns:v1",
				"registry.k8s.io/coredns/coredns:v1 --privileged",
				"registry.k8s.io/coredns/coredns:v1\n",
				"https://registry.k8s.io/coredns/coredns:v1",
				"",
			},
		},
	} {
		s := spec.Properties[name]
		require.NotEmpty(t, s.Pattern, name)
		// The API server matches patterns with Go's regexp too.
		re, err := regexp.Compile(s.Pattern)
		require.NoError(t, err, name)
		for _, v := range values.accepted {
			assert.True(t, re.MatchString(v), "spec.%s %q should be accepted", name, v)
		}
		for _, v := range values.rejected {
			assert.False(t, re.MatchString(v), "spec.%s %q should be rejected", name, v)
		}
	}
}

// walkSchema fails for anything that would let undeclared data through, and for a string or list
// without a bound: unbounded values make CEL rules expensive and objects large.
func walkSchema(t *testing.T, path string, s *apiextensionsv1.JSONSchemaProps) {
	t.Helper()
	assert.Nil(t, s.XPreserveUnknownFields, "%s: x-kubernetes-preserve-unknown-fields", path)
	assert.False(t, s.XEmbeddedResource, "%s: x-kubernetes-embedded-resource", path)
	assert.Nil(t, s.AdditionalProperties, "%s: additionalProperties", path)
	bounded := path == ".apiVersion" || path == ".kind" || path == ".spec.channel" || path == ".spec.patches"
	switch s.Type {
	case "string":
		assert.True(t, s.MaxLength != nil || bounded, "%s: a string needs maxLength", path)
	case "array":
		assert.True(t, s.MaxItems != nil || bounded, "%s: a list needs maxItems", path)
		require.NotNil(t, s.Items, path)
		require.NotNil(t, s.Items.Schema, path)
		walkSchema(t, path+"[]", s.Items.Schema)
	}
	for name, p := range s.Properties {
		walkSchema(t, path+"."+name, &p)
	}
}

func ruleTexts(vs apiextensionsv1.ValidationRules) []string {
	var out []string
	for _, v := range vs {
		out = append(out, v.Rule)
	}
	return out
}
