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
	"testing"

	"github.com/stretchr/testify/assert"
	rbacv1 "k8s.io/api/rbac/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/component-helpers/auth/rbac/validation"

	"k8s.io/kops/pkg/addons/coredns"
)

// granted is what the operator's ServiceAccount may do in namespace, resolving bindings the way
// the RBAC authorizer does: a RoleBinding grants only in its own namespace and refers to a Role of
// that namespace; cluster-wide objects (never expected) would grant everywhere. Covers compares
// rules only, so namespaces must be resolved here.
func granted(objects []runtime.Object, namespace string) []rbacv1.PolicyRule {
	roles := map[[2]string][]rbacv1.PolicyRule{}
	for _, obj := range objects {
		switch o := obj.(type) {
		case *rbacv1.Role:
			roles[[2]string{"Role/" + o.Namespace, o.Name}] = o.Rules
		case *rbacv1.ClusterRole:
			roles[[2]string{"ClusterRole", o.Name}] = o.Rules
		}
	}
	isOperator := func(subjects []rbacv1.Subject) bool {
		for _, s := range subjects {
			if s.Kind == rbacv1.ServiceAccountKind && s.Namespace == coredns.Names().Namespace && s.Name == coredns.Names().ServiceAccount {
				return true
			}
		}
		return false
	}
	ref := func(bindingNamespace string, r rbacv1.RoleRef) [2]string {
		if r.Kind == "ClusterRole" {
			return [2]string{"ClusterRole", r.Name}
		}
		return [2]string{"Role/" + bindingNamespace, r.Name}
	}
	var rules []rbacv1.PolicyRule
	for _, obj := range objects {
		switch o := obj.(type) {
		case *rbacv1.RoleBinding:
			if o.Namespace == namespace && isOperator(o.Subjects) {
				rules = append(rules, roles[ref(o.Namespace, o.RoleRef)]...)
			}
		case *rbacv1.ClusterRoleBinding:
			if isOperator(o.Subjects) {
				rules = append(rules, roles[ref("", o.RoleRef)]...)
			}
		}
	}
	return rules
}

func rule(group, resource, verb string, names ...string) rbacv1.PolicyRule {
	return rbacv1.PolicyRule{APIGroups: []string{group}, Resources: []string{resource}, Verbs: []string{verb}, ResourceNames: names}
}

func rules(group string, resources, verbs []string, names ...string) rbacv1.PolicyRule {
	return rbacv1.PolicyRule{APIGroups: []string{group}, Resources: resources, Verbs: verbs, ResourceNames: names}
}

// needs is what the operator does while reconciling, written from its behaviour rather than from
// Rights: the grants must cover it, and it must cover the grants (nothing unexplained is granted).
var needs = map[string][]rbacv1.PolicyRule{
	coredns.WatchNamespace: {
		// Reads are by name only: the operator lists and watches with fieldSelector metadata.name.
		rules("apps", []string{"deployments"}, []string{"create"}),
		rules("", []string{"services", "configmaps", "serviceaccounts"}, []string{"create"}),
		rules("apps", []string{"deployments"}, []string{"get", "list", "watch", "update", "patch"}, "coredns"),
		rules("", []string{"services"}, []string{"get", "list", "watch", "update", "patch"}, "kube-dns"),
		rules("", []string{"configmaps", "serviceaccounts"}, []string{"get", "list", "watch", "update", "patch"}, "coredns"),
		rules("addons.x-k8s.io", []string{"corednses"}, []string{"get", "list", "watch"}, "coredns"),
		rules("addons.x-k8s.io", []string{"corednses/status"}, []string{"get", "update", "patch"}, "coredns"),
		rules("", []string{"events"}, []string{"create", "patch"}),
		rules("events.k8s.io", []string{"events"}, []string{"create", "patch"}),
	},
	coredns.Names().Namespace: {
		rules("coordination.k8s.io", []string{"leases"}, []string{"create"}),
		rules("coordination.k8s.io", []string{"leases"}, []string{"get", "update"}, "coredns-operator-leader"), // lease.go and client-go's LeaseLock alike (TestLeaseElectorSideBySideWithClientGo): no patch
		rules("", []string{"events"}, []string{"create", "patch"}),
		rules("events.k8s.io", []string{"events"}, []string{"create", "patch"}),
	},
	"default": nil,
}

func TestGrantsMatchNeeds(t *testing.T) {
	objects := Descriptor().RBACObjects()
	for ns, need := range needs {
		t.Run(ns, func(t *testing.T) {
			have := granted(objects, ns)
			ok, missing := validation.Covers(have, need)
			assert.True(t, ok, "operator cannot do what it needs: %v", missing)
			ok, extra := validation.Covers(need, have)
			assert.True(t, ok, "operator is granted more than it needs: %v", extra)
		})
	}
}

func TestGrantsExclude(t *testing.T) {
	objects := Descriptor().RBACObjects()
	for _, tc := range []struct {
		name, namespace string
		rule            rbacv1.PolicyRule
	}{
		{"patch another Deployment", coredns.WatchNamespace, rule("apps", "deployments", "patch", "other")},
		{"delete another ConfigMap", coredns.WatchNamespace, rule("", "configmaps", "delete", "kubeadm-config")},
		{"update another Service", coredns.WatchNamespace, rule("", "services", "update", "kube-proxy")},
		{"delete the kube-dns Service", coredns.WatchNamespace, rule("", "services", "delete", "kube-dns")},
		{"delete the CoreDNS Deployment", coredns.WatchNamespace, rule("apps", "deployments", "delete", "coredns")},
		{"delete the Corefile ConfigMap", coredns.WatchNamespace, rule("", "configmaps", "delete", "coredns")},
		{"patch another ServiceAccount", coredns.WatchNamespace, rule("", "serviceaccounts", "patch", "default")},
		{"deletecollection deployments", coredns.WatchNamespace, rule("apps", "deployments", "deletecollection")},
		{"update CoreDNS spec", coredns.WatchNamespace, rule("addons.x-k8s.io", "corednses", "update", "coredns")},
		{"create CoreDNS objects", coredns.WatchNamespace, rule("addons.x-k8s.io", "corednses", "create")},
		{"get secrets", coredns.WatchNamespace, rule("", "secrets", "get")},
		{"list secrets", coredns.WatchNamespace, rule("", "secrets", "list")},
		{"create pods", coredns.WatchNamespace, rule("", "pods", "create")},
		{"pods/exec", coredns.WatchNamespace, rule("", "pods/exec", "create")},
		{"create roles", coredns.WatchNamespace, rule("rbac.authorization.k8s.io", "roles", "create")},
		{"create rolebindings", coredns.WatchNamespace, rule("rbac.authorization.k8s.io", "rolebindings", "create")},
		{"create clusterroles", "", rule("rbac.authorization.k8s.io", "clusterroles", "create")},
		{"create clusterrolebindings", "", rule("rbac.authorization.k8s.io", "clusterrolebindings", "create")},
		{"impersonate", coredns.WatchNamespace, rule("", "serviceaccounts", "impersonate", "coredns")},
		{"leases in kube-system", coredns.WatchNamespace, rule("coordination.k8s.io", "leases", "update", coredns.Names().LeaseName)},
		{"another lease", coredns.Names().Namespace, rule("coordination.k8s.io", "leases", "update", "other")},
		{"Deployments in the operator namespace", coredns.Names().Namespace, rule("apps", "deployments", "patch", "coredns")},
		{"create ConfigMaps in the operator namespace", coredns.Names().Namespace, rule("", "configmaps", "create")},
		{"Deployments in default", "default", rule("apps", "deployments", "get")},
		{"events in default", "default", rule("", "events", "create")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ok, _ := validation.Covers(granted(objects, tc.namespace), []rbacv1.PolicyRule{tc.rule})
			assert.False(t, ok, "operator may %v in namespace %q", tc.rule, tc.namespace)
		})
	}
}

// TestOperatorNamespaceRoleStaysThere checks the operator-namespace Role cannot act in
// kube-system: Covers ignores namespaces, so this checks where the Role and its binding live.
func TestOperatorNamespaceRoleStaysThere(t *testing.T) {
	roles, bindings := split(t, Descriptor().RBACObjects())
	opRole := roles[coredns.Names().Namespace]
	assert.Equal(t, coredns.Names().Namespace, opRole.Namespace)
	assert.Equal(t, coredns.Names().Namespace, bindings[coredns.Names().Namespace].Namespace)
	// The only binding in kube-system refers to kube-system's own Role, whose rules carry none of
	// the operator-namespace-only grants (the lease).
	assert.Equal(t, "Role", bindings[coredns.WatchNamespace].RoleRef.Kind)
	ok, _ := validation.Covers(granted(Descriptor().RBACObjects(), coredns.WatchNamespace), []rbacv1.PolicyRule{rule("coordination.k8s.io", "leases", "create")})
	assert.False(t, ok, "lease rights leak into kube-system")
}
