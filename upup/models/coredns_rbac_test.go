package models

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	rbacv1 "k8s.io/api/rbac/v1"

	"k8s.io/kops/pkg/apis/kops"
)

// The pre-created RBAC must grant CoreDNS exactly what the built-in addon grants, so that switching
// to the operator changes no rights.
func TestCoreDNSRBACMatchesBuiltIn(t *testing.T) {
	rbac, err := RenderCoreDNSRBAC()
	require.NoError(t, err)
	pre := decodeManifest(t, rbac)
	assert.Equal(t, []string{"ServiceAccount/coredns", "ClusterRole/system:coredns", "ClusterRoleBinding/system:coredns"}, pre.keys)

	_, _, builtIn := renderCluster(t, kops.ClusterSpec{NonMasqueradeCIDR: "100.64.0.0/10"})
	full := decodeManifest(t, builtIn)

	for _, key := range pre.keys {
		assert.Equal(t, CoreDNSRBACAddonName, pre.objects[key].GetLabels()["addon.kops.k8s.io/name"], key)
		assert.Equal(t, CoreDNSAddonName, full.objects[key].GetLabels()["addon.kops.k8s.io/name"], key)
	}
	assert.Equal(t, get[*rbacv1.ClusterRole](t, full, "ClusterRole/system:coredns").Rules, get[*rbacv1.ClusterRole](t, pre, "ClusterRole/system:coredns").Rules)
	assert.Equal(t, get[*rbacv1.ClusterRoleBinding](t, full, "ClusterRoleBinding/system:coredns").Subjects, get[*rbacv1.ClusterRoleBinding](t, pre, "ClusterRoleBinding/system:coredns").Subjects)
	assert.False(t, strings.Contains(string(rbac), "{{"), "no template left unrendered")
}
