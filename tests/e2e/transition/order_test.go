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

package transition

import (
	"testing"

	"github.com/stretchr/testify/assert"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"k8s.io/kops/tests/e2e/framework"
)

// operatorAddon is the addon holding the operator, its rights and the admission policy confining them.
const operatorAddon = "operator.coredns.addons.x-k8s.io"

// confining are the resources of the admission policy and its binding; confined those of the
// rights and workloads a policy confines.
var (
	confining = map[string]bool{
		"validatingadmissionpolicies.admissionregistration.k8s.io":       true,
		"validatingadmissionpolicybindings.admissionregistration.k8s.io": true,
	}
	confined = map[string]bool{
		"roles.rbac.authorization.k8s.io":               true,
		"rolebindings.rbac.authorization.k8s.io":        true,
		"clusterroles.rbac.authorization.k8s.io":        true,
		"clusterrolebindings.rbac.authorization.k8s.io": true,
		"deployments.apps":                              true,
	}
)

func resourceOf(d framework.Deletion) string {
	if d.APIGroup == "" {
		return d.Resource
	}
	return d.Resource + "." + d.APIGroup
}

// operatorConfined are the operator's rights and its Deployment, which its policy confines.
var operatorConfined = []framework.Deletion{
	{APIGroup: "rbac.authorization.k8s.io", Resource: "roles", Namespace: "kube-system", Name: "coredns-operator"},
	{APIGroup: "rbac.authorization.k8s.io", Resource: "rolebindings", Namespace: "kube-system", Name: "coredns-operator"},
	{APIGroup: "rbac.authorization.k8s.io", Resource: "roles", Namespace: "coredns-operator-system", Name: "coredns-operator"},
	{APIGroup: "rbac.authorization.k8s.io", Resource: "rolebindings", Namespace: "coredns-operator-system", Name: "coredns-operator"},
	{APIGroup: "apps", Resource: "deployments", Namespace: "coredns-operator-system", Name: "coredns-operator"},
}

// operatorPolicy is the admission policy confining the operator and its binding.
var operatorPolicy = []framework.Deletion{
	{APIGroup: "admissionregistration.k8s.io", Resource: "validatingadmissionpolicies", Name: "coredns-operator-scope"},
	{APIGroup: "admissionregistration.k8s.io", Resource: "validatingadmissionpolicybindings", Name: "coredns-operator-scope"},
}

// assertPolicyGoesLast checks, from the delete requests the server served during one apply, that no
// admission policy or binding was deleted while a right or workload deleted in the same run still
// existed: every successful delete of a Role, RoleBinding, ClusterRole, ClusterRoleBinding or
// Deployment comes before the first of a policy or binding. When the run retired the operator, its
// Roles, RoleBindings, Deployment, policy and binding must all be among them (so that the check is
// not passed by deleting nothing), and none of the rights and the Deployment may be left.
func assertPolicyGoesLast(t *testing.T, deletions []framework.Deletion, operatorRetired bool) {
	t.Helper()
	var served []framework.Deletion
	for _, d := range deletions {
		if d.Code >= 200 && d.Code < 300 {
			served = append(served, d)
		}
	}
	firstPolicy := -1
	var late []framework.Deletion
	for i, d := range served {
		switch {
		case confining[resourceOf(d)] && firstPolicy < 0:
			firstPolicy = i
		case confined[resourceOf(d)] && firstPolicy >= 0:
			late = append(late, d)
		}
	}
	if len(late) > 0 {
		assert.Failf(t, "rights or workloads outlived the policy confining them",
			"%v were deleted after %s; deletions in order: %v", late, served[firstPolicy], served)
	}
	if !operatorRetired {
		return
	}
	key := func(d framework.Deletion) framework.Deletion {
		return framework.Deletion{APIGroup: d.APIGroup, Resource: d.Resource, Namespace: d.Namespace, Name: d.Name}
	}
	seen := map[framework.Deletion]bool{}
	for _, d := range served {
		seen[key(d)] = true
	}
	for _, want := range append(append([]framework.Deletion(nil), operatorConfined...), operatorPolicy...) {
		assert.True(t, seen[want], "retiring the operator deletes %s; deletions in order: %v", want, served)
	}
	ctx := framework.Context(t)
	for _, ns := range []string{"kube-system", "coredns-operator-system"} {
		_, err := env.Clientset.RbacV1().Roles(ns).Get(ctx, "coredns-operator", metav1.GetOptions{})
		assert.True(t, apierrors.IsNotFound(err), "Role %s/coredns-operator is gone: %v", ns, err)
		_, err = env.Clientset.RbacV1().RoleBindings(ns).Get(ctx, "coredns-operator", metav1.GetOptions{})
		assert.True(t, apierrors.IsNotFound(err), "RoleBinding %s/coredns-operator is gone: %v", ns, err)
	}
	_, err := env.Clientset.AppsV1().Deployments("coredns-operator-system").Get(ctx, "coredns-operator", metav1.GetOptions{})
	assert.True(t, apierrors.IsNotFound(err), "Deployment coredns-operator-system/coredns-operator is gone: %v", err)
}
