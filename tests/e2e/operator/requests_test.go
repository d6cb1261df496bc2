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

package operator

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"

	corednsmodel "k8s.io/kops/pkg/addons/coredns/kopsmodel"
	"k8s.io/kops/tests/e2e/framework"
)

// asOperator is a clientset whose requests run as the CoreDNS operator's service account.
func asOperator(t *testing.T) (kubernetes.Interface, dynamic.Interface) {
	return asOperatorOf(t, corednsmodel.Descriptor())
}

func deployment(namespace, name, serviceAccount string) *appsv1.Deployment {
	labels := map[string]string{"k8s-app": name}
	return &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: namespace},
		Spec: appsv1.DeploymentSpec{
			Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec: corev1.PodSpec{
					ServiceAccountName: serviceAccount,
					Containers:         []corev1.Container{{Name: "c", Image: "registry.k8s.io/coredns/coredns:v1.12.4"}},
				},
			},
		},
	}
}

// ensure creates an object as the admin, for the operator to act on.
func ensureDeployment(t *testing.T, d *appsv1.Deployment) {
	_, err := env.Clientset.AppsV1().Deployments(d.Namespace).Create(framework.Context(t), d, metav1.CreateOptions{})
	if !apierrors.IsAlreadyExists(err) {
		require.NoError(t, err)
	}
}

func assertForbidden(t *testing.T, err error, what string) {
	t.Helper()
	require.Error(t, err, what)
	assert.True(t, apierrors.IsForbidden(err), "%s: want 403 Forbidden, got %v", what, err)
}

// Real requests under the operator's identity: what the matrix allows works, what it denies fails.
func TestOperatorRequests(t *testing.T) {
	setup(t)
	builtIn(t)
	ctx := framework.Context(t)
	ensureRendered(t)
	ensureDeployment(t, deployment("kube-system", "kube-proxy-lookalike", "default"))
	ensureDeployment(t, deployment("default", "coredns", "coredns"))
	var err error
	operator, operatorDyn := asOperator(t)
	patch := []byte(`{"metadata":{"annotations":{"e2e/touched":"yes"}}}`)

	// What the operator may change is what the exact policy leaves open: the replica count, and
	// values its rendering already has.
	_, err = operator.AppsV1().Deployments("kube-system").Patch(ctx, "coredns", types.MergePatchType, []byte(`{"spec":{"replicas":2}}`), metav1.PatchOptions{FieldManager: corednsmodel.Descriptor().FieldManager()})
	assert.NoError(t, err, "patch Deployment kube-system/coredns")
	_, err = operator.CoreV1().Services("kube-system").Patch(ctx, "kube-dns", types.MergePatchType, []byte(`{"metadata":{"annotations":{"prometheus.io/port":"9153"}}}`), metav1.PatchOptions{FieldManager: corednsmodel.Descriptor().FieldManager()})
	assert.NoError(t, err, "patch Service kube-system/kube-dns")

	_, err = operator.AppsV1().Deployments("default").Patch(ctx, "coredns", types.MergePatchType, patch, metav1.PatchOptions{})
	assertForbidden(t, err, "patch Deployment default/coredns")
	_, err = operator.AppsV1().Deployments("kube-system").Patch(ctx, "kube-proxy-lookalike", types.MergePatchType, patch, metav1.PatchOptions{})
	assertForbidden(t, err, "patch another Deployment in kube-system")
	_, err = operator.CoreV1().Secrets("kube-system").List(ctx, metav1.ListOptions{})
	assertForbidden(t, err, "list Secrets")
	_, err = operator.RbacV1().ClusterRoles().Create(ctx, &rbacv1.ClusterRole{ObjectMeta: metav1.ObjectMeta{Name: "e2e-operator-made"}}, metav1.CreateOptions{})
	assertForbidden(t, err, "create a ClusterRole")
	_, err = operator.RbacV1().RoleBindings("kube-system").Create(ctx, &rbacv1.RoleBinding{
		ObjectMeta: metav1.ObjectMeta{Name: "e2e-operator-made"},
		RoleRef:    rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "ClusterRole", Name: "cluster-admin"},
		Subjects:   []rbacv1.Subject{{Kind: rbacv1.ServiceAccountKind, Name: "coredns-operator", Namespace: "coredns-operator-system"}},
	}, metav1.CreateOptions{})
	assertForbidden(t, err, "create a RoleBinding")
	err = operator.CoreV1().RESTClient().Post().Namespace("kube-system").Resource("pods").Name("coredns-abc").SubResource("exec").Do(ctx).Error()
	assertForbidden(t, err, "exec into a pod")

	// Its instructions are read-only to it; only their status is its to write.
	cr, err := operatorDyn.Resource(corednsResource).Namespace("kube-system").Get(ctx, "coredns", metav1.GetOptions{})
	require.NoError(t, err, "the operator reads its instructions")
	changed := cr.DeepCopy()
	require.NoError(t, unstructured.SetNestedField(changed.Object, "9.9.9", "spec", "version"))
	_, err = operatorDyn.Resource(corednsResource).Namespace("kube-system").Update(ctx, changed, metav1.UpdateOptions{})
	assertForbidden(t, err, "update the CoreDNS spec")
	status := cr.DeepCopy()
	require.NoError(t, unstructured.SetNestedField(status.Object, true, "status", "healthy"))
	_, err = operatorDyn.Resource(corednsResource).Namespace("kube-system").UpdateStatus(ctx, status, metav1.UpdateOptions{})
	assert.NoError(t, err, "update the CoreDNS status")
}

// The operator holds no RBAC rights, so the server's escalation check has nothing to let through:
// it cannot create a Role granting what it does not hold.
func TestOperatorCannotEscalate(t *testing.T) {
	setup(t)
	operator, _ := asOperator(t)
	for _, ns := range []string{"kube-system", "coredns-operator-system"} {
		_, err := operator.RbacV1().Roles(ns).Create(framework.Context(t), &rbacv1.Role{
			ObjectMeta: metav1.ObjectMeta{Name: "e2e-escalate"},
			Rules:      []rbacv1.PolicyRule{{APIGroups: []string{""}, Resources: []string{"secrets"}, Verbs: []string{"get", "list"}}},
		}, metav1.CreateOptions{})
		assertForbidden(t, err, "create a Role in "+ns)
	}
}

// RBAC cannot scope create by name; the admission policy kops ships does: the operator may create
// only the objects it manages (TestOperatorDeploymentEscapesDenied checks their fields).
func TestAdmissionPolicyConfinesOperator(t *testing.T) {
	setup(t)
	builtIn(t)
	ctx := framework.Context(t)
	operator, _ := asOperator(t)

	for name, d := range map[string]*appsv1.Deployment{
		"another Deployment":                deployment("kube-system", "e2e-evil", "coredns"),
		"the rendered one under a new name": func() *appsv1.Deployment { d := clean(rendered.deployment); d.Name = "e2e-evil"; return d }(),
	} {
		_, err := operator.AppsV1().Deployments("kube-system").Create(ctx, d, metav1.CreateOptions{DryRun: dryRun})
		assertDenied(t, err, name, "may only create or change Deployment coredns")
	}
	_, err := operator.CoreV1().ConfigMaps("kube-system").Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "e2e-evil"}}, metav1.CreateOptions{DryRun: dryRun})
	assertDenied(t, err, "another ConfigMap", "may only create or change ConfigMap coredns")
	_, err = operator.CoreV1().ServiceAccounts("kube-system").Create(ctx, &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Name: "e2e-evil"}}, metav1.CreateOptions{DryRun: dryRun})
	assertDenied(t, err, "another ServiceAccount", "may only create or change ServiceAccount coredns")

	// The admin is not confined: the policy matches the operator's requests only.
	ensureDeployment(t, deployment("kube-system", "e2e-admin-made", "default"))
}
