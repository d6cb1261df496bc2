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

package coredns

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	rbacv1 "k8s.io/api/rbac/v1"
	"k8s.io/component-helpers/auth/rbac/validation"

	"k8s.io/kops/pkg/apis/kops"
	"k8s.io/kops/pkg/kubemanifest/manifesttest"
)

// The pre-created RBAC must grant CoreDNS exactly what the built-in addon grants, so that switching
// to the operator changes no rights.
func TestCoreDNSRBACMatchesBuiltIn(t *testing.T) {
	rbac, err := RenderRBAC()
	require.NoError(t, err)
	pre := manifesttest.Decode(t, rbac)
	assert.Equal(t, []string{"ServiceAccount/kube-system/coredns", "ClusterRole/system:coredns", "ClusterRoleBinding/system:coredns"}, pre.Keys)

	_, _, builtIn := renderCluster(t, kops.ClusterSpec{NonMasqueradeCIDR: "100.64.0.0/10"})
	full := manifesttest.Decode(t, builtIn)

	for _, key := range pre.Keys {
		assert.Equal(t, RBACAddonName, pre.Objects[key].GetLabels()["addon.kops.k8s.io/name"], key)
		assert.Equal(t, AddonName, full.Objects[key].GetLabels()["addon.kops.k8s.io/name"], key)
	}
	assert.Equal(t, manifesttest.Get[*rbacv1.ClusterRole](t, full, "ClusterRole/system:coredns").Rules, manifesttest.Get[*rbacv1.ClusterRole](t, pre, "ClusterRole/system:coredns").Rules)
	assert.Equal(t, manifesttest.Get[*rbacv1.ClusterRoleBinding](t, full, "ClusterRoleBinding/system:coredns").Subjects, manifesttest.Get[*rbacv1.ClusterRoleBinding](t, pre, "ClusterRoleBinding/system:coredns").Subjects)
	assert.False(t, strings.Contains(string(rbac), "{{"), "no template left unrendered")
}

// What CoreDNS's kubernetes plugin reads from the API, written from its behaviour: the pre-created
// role must cover it, and grant nothing more.
var coreDNSNeeds = []rbacv1.PolicyRule{
	{APIGroups: []string{""}, Resources: []string{"endpoints", "services", "pods", "namespaces"}, Verbs: []string{"list", "watch"}},
	{APIGroups: []string{"discovery.k8s.io"}, Resources: []string{"endpointslices"}, Verbs: []string{"list", "watch"}},
}

func TestPreCreatedRoleCoversCoreDNS(t *testing.T) {
	rbac, err := RenderRBAC()
	require.NoError(t, err)
	role := manifesttest.Get[*rbacv1.ClusterRole](t, manifesttest.Decode(t, rbac), "ClusterRole/system:coredns")
	ok, missing := validation.Covers(role.Rules, coreDNSNeeds)
	assert.True(t, ok, "CoreDNS cannot do what it needs: %v", missing)
	ok, extra := validation.Covers(coreDNSNeeds, role.Rules)
	assert.True(t, ok, "CoreDNS is granted more than it needs: %v", extra)
	for _, forbidden := range []rbacv1.PolicyRule{
		{APIGroups: []string{""}, Resources: []string{"secrets"}, Verbs: []string{"get"}},
		{APIGroups: []string{""}, Resources: []string{"services"}, Verbs: []string{"update"}},
		{APIGroups: []string{""}, Resources: []string{"pods"}, Verbs: []string{"get"}},
	} {
		ok, _ := validation.Covers(role.Rules, []rbacv1.PolicyRule{forbidden})
		assert.False(t, ok, "must not cover %v", forbidden)
	}
}
