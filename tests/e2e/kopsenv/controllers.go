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

package kopsenv

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/util/retry"

	"k8s.io/kops/pkg/addons/coredns"
	"k8s.io/kops/tests/e2e/framework"
)

// The test server runs no controllers: these play the Deployment controller and the CoreDNS
// operator by writing the status they would write.

// SetDeploymentStatus reports the Deployment's latest generation observed with every replica
// available and the rollout complete (available true), none available (false), or without an
// Available condition yet (nil): the conditions the Deployment controller writes.
func SetDeploymentStatus(t testing.TB, env *framework.Env, namespace, name string, available *bool) {
	t.Helper()
	ctx := context.Background()
	deployments := env.Clientset.AppsV1().Deployments(namespace)
	require.NoError(t, retry.RetryOnConflict(retry.DefaultRetry, func() error {
		d, err := deployments.Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		replicas := int32(1)
		if d.Spec.Replicas != nil {
			replicas = *d.Spec.Replicas
		}
		cond := appsv1.DeploymentCondition{Type: appsv1.DeploymentAvailable, Status: corev1.ConditionTrue, Reason: "MinimumReplicasAvailable", Message: "Deployment has minimum availability."}
		d.Status = appsv1.DeploymentStatus{ObservedGeneration: d.Generation, Replicas: replicas, UpdatedReplicas: replicas, ReadyReplicas: replicas, AvailableReplicas: replicas}
		if available == nil || !*available {
			cond.Status, cond.Reason, cond.Message = corev1.ConditionFalse, "MinimumReplicasUnavailable", "Deployment does not have minimum availability."
			d.Status.ReadyReplicas, d.Status.AvailableReplicas, d.Status.UnavailableReplicas = 0, 0, replicas
		}
		if available != nil {
			d.Status.Conditions = []appsv1.DeploymentCondition{cond}
		}
		if available != nil && *available {
			d.Status.Conditions = append(d.Status.Conditions, appsv1.DeploymentCondition{Type: appsv1.DeploymentProgressing, Status: corev1.ConditionTrue,
				Reason: "NewReplicaSetAvailable", Message: "ReplicaSet has successfully progressed."})
		}
		_, err = deployments.UpdateStatus(ctx, d, metav1.UpdateOptions{})
		return err
	}))
}

// CreateDeployment plays an operator: it creates a Deployment of one pod selected by labels, as
// the admin, unless one of that name is there. The selector is immutable, so it must be the one kops
// renders where kops applies the Deployment later.
func CreateDeployment(t testing.TB, env *framework.Env, namespace, name string, labels map[string]string) {
	t.Helper()
	_, err := env.Clientset.AppsV1().Deployments(namespace).Create(context.Background(), &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: namespace},
		Spec: appsv1.DeploymentSpec{
			Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "registry.k8s.io/pause:3.10"}}},
			},
		},
	}, metav1.CreateOptions{})
	if !apierrors.IsAlreadyExists(err) {
		require.NoError(t, err)
	}
}

// SetCoreDNSStatus reports the CoreDNS object kube-system/coredns healthy or not, with errors, as
// the operator does.
func SetCoreDNSStatus(t testing.TB, env *framework.Env, healthy bool, errs ...string) {
	t.Helper()
	ctx := context.Background()
	client, err := dynamic.NewForConfig(env.Config)
	require.NoError(t, err)
	gvr := schema.GroupVersionResource{Group: coredns.CRDGroup, Version: "v1alpha1", Resource: coredns.CRDResource}
	resource := client.Resource(gvr).Namespace(coredns.WatchNamespace)
	require.NoError(t, retry.RetryOnConflict(retry.DefaultRetry, func() error {
		u, err := resource.Get(ctx, coredns.CoreDNSResource, metav1.GetOptions{})
		if err != nil {
			return err
		}
		status := map[string]interface{}{"healthy": healthy}
		if len(errs) > 0 {
			list := make([]interface{}, 0, len(errs))
			for _, e := range errs {
				list = append(list, e)
			}
			status["errors"] = list
		}
		require.NoError(t, unstructured.SetNestedField(u.Object, status, "status"))
		_, err = resource.UpdateStatus(ctx, u, metav1.UpdateOptions{})
		return err
	}))
}
