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

package confine_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"

	"k8s.io/kops/pkg/operator/confine"
)

// What a real metrics-server needs pre-created: a read-only ClusterRole, its binding and the
// delegated-auth bindings of its own ServiceAccount, and the APIService routing metrics.k8s.io to
// its Service.
func metricsServerPrerequisites() []runtime.Object {
	sa := rbacv1.Subject{Kind: "ServiceAccount", Name: "metrics-server", Namespace: "kube-system"}
	rbac := metav1.TypeMeta{APIVersion: "rbac.authorization.k8s.io/v1"}
	withKind := func(kind string) metav1.TypeMeta { t := rbac; t.Kind = kind; return t }
	return []runtime.Object{
		&rbacv1.ClusterRole{TypeMeta: withKind("ClusterRole"), ObjectMeta: metav1.ObjectMeta{Name: "system:metrics-server"},
			Rules: []rbacv1.PolicyRule{{APIGroups: []string{""}, Resources: []string{"nodes/metrics", "pods", "nodes"}, Verbs: []string{"get", "list", "watch"}}}},
		&rbacv1.ClusterRoleBinding{TypeMeta: withKind("ClusterRoleBinding"), ObjectMeta: metav1.ObjectMeta{Name: "system:metrics-server"},
			RoleRef: rbacv1.RoleRef{APIGroup: "rbac.authorization.k8s.io", Kind: "ClusterRole", Name: "system:metrics-server"}, Subjects: []rbacv1.Subject{sa}},
		&rbacv1.ClusterRoleBinding{TypeMeta: withKind("ClusterRoleBinding"), ObjectMeta: metav1.ObjectMeta{Name: "metrics-server:system:auth-delegator"},
			RoleRef: rbacv1.RoleRef{APIGroup: "rbac.authorization.k8s.io", Kind: "ClusterRole", Name: "system:auth-delegator"}, Subjects: []rbacv1.Subject{sa}},
		&rbacv1.RoleBinding{TypeMeta: withKind("RoleBinding"), ObjectMeta: metav1.ObjectMeta{Name: "metrics-server-auth-reader", Namespace: "kube-system"},
			RoleRef: rbacv1.RoleRef{APIGroup: "rbac.authorization.k8s.io", Kind: "Role", Name: "extension-apiserver-authentication-reader"}, Subjects: []rbacv1.Subject{sa}},
		apiService("metrics-server"),
	}
}

func apiService(service string) *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: map[string]interface{}{
		"apiVersion": "apiregistration.k8s.io/v1", "kind": "APIService",
		"metadata": map[string]interface{}{"name": "v1beta1.metrics.k8s.io"},
		"spec": map[string]interface{}{
			"group": "metrics.k8s.io", "version": "v1beta1", "groupPriorityMinimum": int64(100), "versionPriority": int64(100),
			"service": map[string]interface{}{"name": service, "namespace": "kube-system"},
		},
	}}
}

// budget is the PodDisruptionBudget of metrics-server's pods, in namespace.
func budget(namespace string) *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: map[string]interface{}{
		"apiVersion": "policy/v1", "kind": "PodDisruptionBudget",
		"metadata": map[string]interface{}{"name": "metrics-server", "namespace": namespace},
		"spec": map[string]interface{}{
			"minAvailable": int64(1),
			"selector":     map[string]interface{}{"matchLabels": map[string]interface{}{"k8s-app": "metrics-server"}},
		},
	}}
}

func TestPrerequisitesOfARealMetricsServerAreAccepted(t *testing.T) {
	d := metricsServer()
	d.Prerequisites = metricsServerPrerequisites()
	require.NoError(t, d.Validate())
	d.Prerequisites = append(d.Prerequisites, budget("kube-system"))
	require.NoError(t, d.Validate(), "its PodDisruptionBudget, in the watch namespace")
	d.Prerequisites = d.Prerequisites[:5]
	assert.Equal(t, "prerequisites.metrics-server.addons.x-k8s.io", d.PrerequisitesAddon())
	objects, err := d.PrerequisiteObjects()
	require.NoError(t, err)
	require.Len(t, objects, 5)
	assert.NotContains(t, objects[0]["metadata"], "creationTimestamp", "only what the descriptor says")
}

// Each attack changes one prerequisite so that the operator, or whoever it could run, would get
// something past its confinement; each is refused with where and why.
func TestPrerequisitesRefuseWhatTheOperatorCouldWrite(t *testing.T) {
	operatorSA := rbacv1.Subject{Kind: "ServiceAccount", Name: "metrics-server-operator", Namespace: "metrics-server-operator-system"}
	cases := []struct {
		name   string
		change func(d *confine.Descriptor)
		want   string
	}{
		{"binds the operator itself", func(d *confine.Descriptor) {
			d.Prerequisites[1].(*rbacv1.ClusterRoleBinding).Subjects = append(d.Prerequisites[1].(*rbacv1.ClusterRoleBinding).Subjects, operatorSA)
		}, "Prerequisites[1].subjects[1]: ServiceAccount metrics-server-operator-system/metrics-server-operator: a prerequisite binds only a ServiceAccount the operator manages"},
		{"binds a group holding every ServiceAccount", func(d *confine.Descriptor) {
			d.Prerequisites[1].(*rbacv1.ClusterRoleBinding).Subjects = []rbacv1.Subject{{Kind: "Group", Name: "system:serviceaccounts"}}
		}, "Prerequisites[1].subjects[0]: Group /system:serviceaccounts"},
		{"binds a ServiceAccount the operator does not manage", func(d *confine.Descriptor) {
			d.Prerequisites[2].(*rbacv1.ClusterRoleBinding).Subjects[0].Name = "default"
		}, "Prerequisites[2].subjects[0]: ServiceAccount kube-system/default"},
		{"binds cluster-admin", func(d *confine.Descriptor) {
			d.Prerequisites[1].(*rbacv1.ClusterRoleBinding).RoleRef.Name = "cluster-admin"
		}, `Prerequisites[1].roleRef: ClusterRole "cluster-admin" is neither a prerequisite ClusterRole nor a read-only built-in role`},
		{"binds a built-in Role under a ClusterRole's name", func(d *confine.Descriptor) {
			d.Prerequisites[3].(*rbacv1.RoleBinding).RoleRef.Kind = "ClusterRole"
		}, `Prerequisites[3].roleRef: ClusterRole "extension-apiserver-authentication-reader"`},
		{"a role that writes", func(d *confine.Descriptor) {
			d.Prerequisites[0].(*rbacv1.ClusterRole).Rules[0].Verbs = append(d.Prerequisites[0].(*rbacv1.ClusterRole).Rules[0].Verbs, "patch")
		}, `Prerequisites[0].rules[0].verbs: "patch": a prerequisite role may only read`},
		{"a role that escalates", func(d *confine.Descriptor) {
			d.Prerequisites[0].(*rbacv1.ClusterRole).Rules = append(d.Prerequisites[0].(*rbacv1.ClusterRole).Rules,
				rbacv1.PolicyRule{APIGroups: []string{"rbac.authorization.k8s.io"}, Resources: []string{"clusterroles"}, Verbs: []string{"escalate", "bind"}})
		}, `Prerequisites[0].rules[1].verbs: "escalate"`},
		{"a role with a wildcard", func(d *confine.Descriptor) {
			d.Prerequisites[0].(*rbacv1.ClusterRole).Rules[0].Resources = []string{"*"}
		}, "Prerequisites[0].rules[0].resources: wildcards are not allowed"},
		{"a role aggregating the built-in roles", func(d *confine.Descriptor) {
			d.Prerequisites[0].(*rbacv1.ClusterRole).AggregationRule = &rbacv1.AggregationRule{
				ClusterRoleSelectors: []metav1.LabelSelector{{MatchLabels: map[string]string{"kubernetes.io/bootstrapping": "rbac-defaults"}}}}
		}, "Prerequisites[0].aggregationRule: not allowed"},
		{"a role aggregating nothing yet", func(d *confine.Descriptor) {
			d.Prerequisites[0].(*rbacv1.ClusterRole).AggregationRule = &rbacv1.AggregationRule{}
		}, "Prerequisites[0].aggregationRule: not allowed"},
		{"a role reading secrets", func(d *confine.Descriptor) {
			d.Prerequisites[0].(*rbacv1.ClusterRole).Rules[0].Resources = append(d.Prerequisites[0].(*rbacv1.ClusterRole).Rules[0].Resources, "secrets")
		}, `Prerequisites[0].rules[0].resources: "secrets": a prerequisite role may not read Secrets`},
		{"an APIService routed elsewhere", func(d *confine.Descriptor) {
			d.Prerequisites[4] = apiService("kube-dns")
		}, "Prerequisites[4].spec.service: kube-system/kube-dns: must be a Service the operator manages"},
		{"a namespaced object that is no binding", func(d *confine.Descriptor) {
			d.Prerequisites = append(d.Prerequisites, &rbacv1.Role{TypeMeta: metav1.TypeMeta{APIVersion: "rbac.authorization.k8s.io/v1", Kind: "Role"}, ObjectMeta: metav1.ObjectMeta{Name: "r", Namespace: "kube-system"}})
		}, "Prerequisites[5]: rbac.authorization.k8s.io/v1 Role is not a prerequisite kind"},
		{"a ClusterRoleBinding in a namespace", func(d *confine.Descriptor) {
			d.Prerequisites[1].(*rbacv1.ClusterRoleBinding).Namespace = "kube-system"
		}, `Prerequisites[1].metadata.namespace: "kube-system": must be ""`},
		{"a RoleBinding in the operator's own namespace", func(d *confine.Descriptor) {
			d.Prerequisites[3].(*rbacv1.RoleBinding).Namespace = "metrics-server-operator-system"
		}, `Prerequisites[3].metadata.namespace: "metrics-server-operator-system": must be "kube-system"`},
		{"the same object twice", func(d *confine.Descriptor) {
			d.Prerequisites = append(d.Prerequisites, d.Prerequisites[0].DeepCopyObject())
		}, `Prerequisites[5]: a second ClusterRole "system:metrics-server"`},
		{"a budget outside the watch namespace", func(d *confine.Descriptor) {
			d.Prerequisites = append(d.Prerequisites, budget("metrics-server-operator-system"))
		}, `Prerequisites[5].metadata.namespace: "metrics-server-operator-system": must be "kube-system"`},
		{"a budget named for no managed workload, selecting everything", func(d *confine.Descriptor) {
			everything := budget("kube-system")
			everything.SetName("everything")
			everything.Object["spec"] = map[string]interface{}{"minAvailable": int64(1), "selector": map[string]interface{}{}}
			d.Prerequisites = append(d.Prerequisites, everything)
		}, `Prerequisites[5].metadata.name: "everything": a prerequisite budget is named for the Deployment or DaemonSet it drains`},
		{"a budget with an empty selector", func(d *confine.Descriptor) {
			empty := budget("kube-system")
			empty.Object["spec"].(map[string]interface{})["selector"] = map[string]interface{}{}
			d.Prerequisites = append(d.Prerequisites, empty)
		}, "Prerequisites[5].spec.selector.matchLabels: required: an empty selector selects every pod of the namespace"},
		{"a budget named for a managed object that runs no pods", func(d *confine.Descriptor) {
			d.Managed[1].Name = "metrics-server-svc"
			service := budget("kube-system")
			service.SetName("metrics-server-svc")
			d.Prerequisites = append(d.Prerequisites, service)
		}, `Prerequisites[5].metadata.name: "metrics-server-svc"`},
		{"a budget selecting by expressions", func(d *confine.Descriptor) {
			expressions := budget("kube-system")
			expressions.Object["spec"].(map[string]interface{})["selector"].(map[string]interface{})["matchExpressions"] = []interface{}{
				map[string]interface{}{"key": "k8s-app", "operator": "Exists"}}
			d.Prerequisites = append(d.Prerequisites, expressions)
		}, "Prerequisites[5].spec.selector.matchExpressions: not allowed"},
		{"a right of the operator on the budget", func(d *confine.Descriptor) {
			d.Prerequisites = append(d.Prerequisites, budget("kube-system"))
			d.Rights = append(d.Rights, confine.Right{Namespace: "kube-system", APIGroup: "policy", Resources: []string{"poddisruptionbudgets"}, Verbs: []string{"update"}, ResourceNames: []string{"metrics-server"}, Why: "x"})
		}, "Prerequisites[5]: Rights[14] grants the operator [update] on poddisruptionbudgets"},
		{"a right of the operator on a prerequisite's kind", func(d *confine.Descriptor) {
			d.Rights = append(d.Rights, confine.Right{Namespace: "kube-system", APIGroup: "rbac.authorization.k8s.io", Resources: []string{"rolebindings"}, Verbs: []string{"get"}, Why: "read"})
		}, "Prerequisites[3]: Rights[14] grants the operator [get] on rolebindings: kops writes prerequisites, the operator may not touch them"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			d := metricsServer()
			d.Prerequisites = metricsServerPrerequisites()
			require.NoError(t, d.Validate(), "the untouched prerequisites are accepted")
			tc.change(d)
			err := d.Validate()
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}

// The descriptor does not hold the workload's selector; the scope, derived from the workload as
// rendered, does: a budget whose matchLabels are not the workload's is refused there.
func TestBudgetSelectsItsWorkloadAsRendered(t *testing.T) {
	_, err := metricsServerScope()
	require.NoError(t, err, "metrics-server's own budget selects its Deployment's pods")

	cases := map[string]map[string]interface{}{
		"other pods":       {"k8s-app": "kube-dns"},
		"a subset of more": {"k8s-app": "metrics-server", "tier": "x"},
	}
	for name, labels := range cases {
		t.Run(name, func(t *testing.T) {
			d := metricsServer()
			found := false
			for i, p := range d.Prerequisites {
				if p.GetObjectKind().GroupVersionKind().Kind != "PodDisruptionBudget" {
					continue
				}
				b := budget("kube-system")
				b.Object["spec"].(map[string]interface{})["selector"] = map[string]interface{}{"matchLabels": labels}
				d.Prerequisites[i] = b
				found = true
			}
			require.True(t, found, "metrics-server's prerequisites hold its budget")
			require.NoError(t, d.Validate(), "the descriptor alone cannot tell")
			_, err := d.ScopeFromManifest(metricsServerRendering(t), metricsServerRendering(t), nil)
			require.Error(t, err)
			assert.Contains(t, err.Error(), "spec.selector.matchLabels: ")
			assert.Contains(t, err.Error(), "must be the spec.selector.matchLabels of Deployment kube-system/metrics-server as rendered, map[k8s-app:metrics-server]")
		})
	}
}
