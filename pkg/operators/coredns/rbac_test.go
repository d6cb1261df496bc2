package coredns

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	rbacv1 "k8s.io/api/rbac/v1"
	"k8s.io/component-helpers/auth/rbac/validation"

	"k8s.io/kops/pkg/apis/kops"
)

// The pre-created RBAC must grant CoreDNS exactly what the built-in addon grants, so that switching
// to the operator changes no rights.
func TestCoreDNSRBACMatchesBuiltIn(t *testing.T) {
	rbac, err := RenderRBAC()
	require.NoError(t, err)
	pre := decodeManifest(t, rbac)
	assert.Equal(t, []string{"ServiceAccount/coredns", "ClusterRole/system:coredns", "ClusterRoleBinding/system:coredns"}, pre.keys)

	_, _, builtIn := renderCluster(t, kops.ClusterSpec{NonMasqueradeCIDR: "100.64.0.0/10"})
	full := decodeManifest(t, builtIn)

	for _, key := range pre.keys {
		assert.Equal(t, RBACAddonName, pre.objects[key].GetLabels()["addon.kops.k8s.io/name"], key)
		assert.Equal(t, AddonName, full.objects[key].GetLabels()["addon.kops.k8s.io/name"], key)
	}
	assert.Equal(t, get[*rbacv1.ClusterRole](t, full, "ClusterRole/system:coredns").Rules, get[*rbacv1.ClusterRole](t, pre, "ClusterRole/system:coredns").Rules)
	assert.Equal(t, get[*rbacv1.ClusterRoleBinding](t, full, "ClusterRoleBinding/system:coredns").Subjects, get[*rbacv1.ClusterRoleBinding](t, pre, "ClusterRoleBinding/system:coredns").Subjects)
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
	role := get[*rbacv1.ClusterRole](t, decodeManifest(t, rbac), "ClusterRole/system:coredns")
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
