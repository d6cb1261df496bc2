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
	"bytes"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	rbacv1 "k8s.io/api/rbac/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/yaml"

	"k8s.io/kops/pkg/addons/coredns"
)

// split sorts generated objects by type, failing on anything that is not a Role or RoleBinding.
func split(t *testing.T, objects []runtime.Object) (map[string]*rbacv1.Role, map[string]*rbacv1.RoleBinding) {
	t.Helper()
	roles, bindings := map[string]*rbacv1.Role{}, map[string]*rbacv1.RoleBinding{}
	for _, obj := range objects {
		switch o := obj.(type) {
		case *rbacv1.Role:
			require.NotContains(t, roles, o.Namespace, "two Roles in one namespace")
			roles[o.Namespace] = o
		case *rbacv1.RoleBinding:
			require.NotContains(t, bindings, o.Namespace, "two RoleBindings in one namespace")
			bindings[o.Namespace] = o
		default:
			t.Fatalf("unexpected object %T (no ClusterRole or ClusterRoleBinding may be generated)", obj)
		}
	}
	return roles, bindings
}

func TestRolesEqualRights(t *testing.T) {
	roles, bindings := split(t, Descriptor().RBACObjects())
	assert.ElementsMatch(t, []string{coredns.WatchNamespace, coredns.Names().Namespace}, keys(roles))
	assert.ElementsMatch(t, []string{coredns.WatchNamespace, coredns.Names().Namespace}, keys(bindings))

	for _, ns := range []string{coredns.WatchNamespace, coredns.Names().Namespace} {
		t.Run(ns, func(t *testing.T) {
			var want []rbacv1.PolicyRule
			for _, r := range Rights() {
				if r.Namespace == ns {
					want = append(want, rbacv1.PolicyRule{APIGroups: []string{r.APIGroup}, Resources: r.Resources, Verbs: r.Verbs, ResourceNames: r.ResourceNames})
				}
			}
			role, binding := roles[ns], bindings[ns]
			require.NotNil(t, role)
			require.NotNil(t, binding)
			assert.Equal(t, want, role.Rules)
			assert.Equal(t, coredns.Names().RBACName, role.Name)
			assert.Equal(t, rbacv1.RoleRef{APIGroup: "rbac.authorization.k8s.io", Kind: "Role", Name: role.Name}, binding.RoleRef)
			assert.Equal(t, []rbacv1.Subject{{Kind: "ServiceAccount", Name: "coredns-operator", Namespace: "coredns-operator-system"}}, binding.Subjects)
			for _, labels := range []map[string]string{role.Labels, binding.Labels} {
				assert.Equal(t, map[string]string{
					"app.kubernetes.io/name":       "coredns-operator",
					"app.kubernetes.io/managed-by": "kops",
					"addon.kops.k8s.io/name":       "operator.coredns.addons.x-k8s.io",
				}, labels)
			}
		})
	}
}

func keys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// allRules is every rule in every generated Role.
func allRules(t *testing.T) []rbacv1.PolicyRule {
	roles, _ := split(t, Descriptor().RBACObjects())
	var rules []rbacv1.PolicyRule
	for _, role := range roles {
		rules = append(rules, role.Rules...)
	}
	require.NotEmpty(t, rules)
	return rules
}

func TestNoForbiddenRules(t *testing.T) {
	forbidden := []struct {
		name string
		bad  func(rbacv1.PolicyRule) bool
	}{
		{"wildcard", func(r rbacv1.PolicyRule) bool {
			return hasAny(r.APIGroups, "*") || hasAny(r.Resources, "*") || hasAny(r.Verbs, "*") || hasAny(r.ResourceNames, "*")
		}},
		{"rbac group", func(r rbacv1.PolicyRule) bool { return hasAny(r.APIGroups, "rbac.authorization.k8s.io") }},
		{"secrets, pods, pods/exec", func(r rbacv1.PolicyRule) bool { return hasAny(r.Resources, "secrets", "pods", "pods/exec") }},
		{"non-resource URLs", func(r rbacv1.PolicyRule) bool { return len(r.NonResourceURLs) > 0 }},
		{"empty rule", func(r rbacv1.PolicyRule) bool {
			return len(r.APIGroups) == 0 || len(r.Resources) == 0 || len(r.Verbs) == 0
		}},
	}
	rules := allRules(t)
	for _, f := range forbidden {
		t.Run(f.name, func(t *testing.T) {
			for _, r := range rules {
				assert.False(t, f.bad(r), "forbidden rule %+v", r)
			}
		})
	}
	for _, r := range Rights() {
		assert.Contains(t, []string{coredns.WatchNamespace, coredns.Names().Namespace}, r.Namespace, "right outside the operator's namespaces: %+v", r)
		assert.NotEmpty(t, r.Why, "right without a reason: %+v", r)
	}
}

// writeVerbs change state or widen access.
var writeVerbs = []string{"create", "update", "patch", "delete", "deletecollection", "bind", "escalate", "impersonate"}

// unnamedWrites are the only writes besides create that Rights grants without resourceNames,
// keyed group/resource/verb. Events get generated names, so patching one cannot be limited by
// name.
var unnamedWrites = map[string]bool{
	"/events/patch":              true,
	"events.k8s.io/events/patch": true,
}

func TestUnnamedWritesAreOnlyCreate(t *testing.T) {
	for _, r := range allRules(t) {
		for _, v := range r.Verbs {
			if hasAny(writeVerbs, v) && v != "create" && len(r.ResourceNames) == 0 {
				for _, g := range r.APIGroups {
					for _, res := range r.Resources {
						assert.True(t, unnamedWrites[g+"/"+res+"/"+v], "%s on %s/%s without resourceNames", v, g, res)
					}
				}
			}
			// create is authorized before the object has a name, so a named create grants nothing.
			if v == "create" {
				assert.Empty(t, r.ResourceNames, "create limited by name never matches: %+v", r)
			}
		}
	}
}

func TestRBACObjectsDoNotShareRights(t *testing.T) {
	want, err := Descriptor().RBACManifest()
	require.NoError(t, err)
	roles, _ := split(t, Descriptor().RBACObjects())
	for _, role := range roles {
		for _, r := range role.Rules {
			for _, s := range [][]string{r.APIGroups, r.Resources, r.Verbs, r.ResourceNames} {
				for i := range s {
					s[i] = "mutated"
				}
			}
		}
	}
	got, err := Descriptor().RBACManifest()
	require.NoError(t, err)
	assert.Equal(t, string(want), string(got), "changing generated objects changed Rights")
}

func TestRBACManifest(t *testing.T) {
	first, err := Descriptor().RBACManifest()
	require.NoError(t, err)
	second, err := Descriptor().RBACManifest()
	require.NoError(t, err)
	assert.Equal(t, first, second, "manifest must be byte-stable")
	assert.True(t, bytes.HasSuffix(first, []byte("\n")) && !bytes.HasSuffix(first, []byte("\n\n")))

	objects := Descriptor().RBACObjects()
	docs := bytes.Split(first, []byte("\n---\n"))
	require.Len(t, docs, len(objects))
	for i, doc := range docs {
		var kind struct{ Kind string }
		require.NoError(t, yaml.Unmarshal(doc, &kind))
		var decoded runtime.Object
		switch kind.Kind {
		case "Role":
			decoded = &rbacv1.Role{}
		case "RoleBinding":
			decoded = &rbacv1.RoleBinding{}
		default:
			t.Fatalf("document %d has unexpected kind %q", i, kind.Kind)
		}
		require.NoError(t, yaml.UnmarshalStrict(doc, decoded), "document %d", i)
		assert.Equal(t, objects[i], decoded, "document %d", i)
		assert.True(t, sort.StringsAreSorted(topLevelKeys(doc)), "document %d keys not sorted: %v", i, topLevelKeys(doc))
	}
}

// topLevelKeys lists the unindented keys of a YAML document, in order.
func topLevelKeys(doc []byte) []string {
	var out []string
	for _, line := range strings.Split(string(doc), "\n") {
		if line != "" && line[0] != ' ' && line[0] != '-' {
			out = append(out, strings.SplitN(line, ":", 2)[0])
		}
	}
	return out
}

func hasAny(set []string, values ...string) bool {
	for _, s := range set {
		for _, v := range values {
			if s == v {
				return true
			}
		}
	}
	return false
}
