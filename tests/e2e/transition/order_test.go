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

// confines names, by admission policy (and binding), the rights and workload of the identity it
// confines: the operator's, and the autoscaler's beside it. A policy missing here fails the check,
// so that a new one is paired with what it confines.
var confines = map[string]string{
	"coredns-operator-scope":       "coredns-operator",
	"coredns-operator-scope-exact": "coredns-operator",
	"coredns-autoscaler-replicas":  "coredns-autoscaler",
}

// assertPolicyGoesLast checks, from the delete requests the server served during one apply, that no
// admission policy or binding was deleted while a right or workload it confines, deleted in the same
// run, still existed: every successful delete of a Role, RoleBinding, ClusterRole,
// ClusterRoleBinding or Deployment of an identity comes before the first of a policy or binding
// confining that identity. (Retired addons are retired one after another, so the autoscaler's
// policy, whose addon sorts first, may go before the operator's rights: it confines none of them,
// and the autoscaler's own rights and Deployment stay, claimed by the built-in addon.) When the run
// retired the operator, its Roles, RoleBindings, Deployment, policy and binding must all be among
// them (so that the check is not passed by deleting nothing), and none of the rights and the
// Deployment may be left.
func assertPolicyGoesLast(t *testing.T, deletions []framework.Deletion, operatorRetired bool) {
	t.Helper()
	var served []framework.Deletion
	for _, d := range deletions {
		if d.Code >= 200 && d.Code < 300 {
			served = append(served, d)
		}
	}
	firstPolicy := map[string]int{}
	var late []framework.Deletion
	for i, d := range served {
		switch {
		case confining[resourceOf(d)]:
			who, known := confines[d.Name]
			if !assert.True(t, known, "admission policy %s is deleted, and this check does not know whom it confines", d.Name) {
				continue
			}
			if _, seen := firstPolicy[who]; !seen {
				firstPolicy[who] = i
			}
		case confined[resourceOf(d)]:
			if first, seen := firstPolicy[d.Name]; seen {
				late = append(late, d, served[first])
			}
		}
	}
	if len(late) > 0 {
		assert.Failf(t, "rights or workloads outlived the policy confining them",
			"(deleted, after the policy confining it) pairs %v; deletions in order: %v", late, served)
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
