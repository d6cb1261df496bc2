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

package manager

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/utils/ptr"

	"k8s.io/kops/pkg/operator"
)

func deploymentWith(generation int64, replicas int32, s appsv1.DeploymentStatus) *appsv1.Deployment {
	return &appsv1.Deployment{
		TypeMeta:   metav1.TypeMeta{APIVersion: "apps/v1", Kind: "Deployment"},
		ObjectMeta: metav1.ObjectMeta{Name: "coredns", Namespace: "kube-system", Generation: generation},
		Spec:       appsv1.DeploymentSpec{Replicas: ptr.To(replicas), ProgressDeadlineSeconds: ptr.To(int32(600))},
		Status:     s,
	}
}

// rolledOutConditions are what the Deployment controller reports once every replica runs the
// current template.
var rolledOutConditions = []appsv1.DeploymentCondition{
	{Type: appsv1.DeploymentAvailable, Status: corev1.ConditionTrue, Reason: "MinimumReplicasAvailable"},
	{Type: appsv1.DeploymentProgressing, Status: corev1.ConditionTrue, Reason: "NewReplicaSetAvailable"},
}

func toU(t *testing.T, obj any) *unstructured.Unstructured {
	t.Helper()
	m, err := runtime.DefaultUnstructuredConverter.ToUnstructured(obj)
	require.NoError(t, err)
	return &unstructured.Unstructured{Object: m}
}

func deploymentState(t *testing.T, d *appsv1.Deployment) workload {
	t.Helper()
	w, err := workloadState(operator.Managed{Kind: "Deployment", Name: d.Name}, d.Namespace, toU(t, d))
	require.NoError(t, err)
	return w
}

func TestComputeStatus(t *testing.T) {
	rolledOut := appsv1.DeploymentStatus{ObservedGeneration: 3, Replicas: 2, UpdatedReplicas: 2, ReadyReplicas: 2, AvailableReplicas: 2, Conditions: rolledOutConditions}
	stalled := rolledOut
	stalled.UpdatedReplicas = 1
	stalled.Conditions = []appsv1.DeploymentCondition{rolledOutConditions[0], {Type: appsv1.DeploymentProgressing, Status: corev1.ConditionFalse, Reason: "ProgressDeadlineExceeded"}}
	for _, tc := range []struct {
		name                             string
		errs                             []error
		d                                *appsv1.Deployment
		phase                            string
		healthy                          bool
		available, progressing, degraded bool
	}{
		{"no Deployment yet", nil, nil, PhaseProgressing, false, false, true, false},
		{"rolled out", nil, deploymentWith(3, 2, rolledOut), PhaseReady, true, true, false, false},
		{"new generation not yet observed", nil, deploymentWith(4, 2, rolledOut), PhaseProgressing, false, true, true, false},
		{"one replica of two updated", nil, deploymentWith(3, 2, appsv1.DeploymentStatus{ObservedGeneration: 3, Replicas: 2, UpdatedReplicas: 1, ReadyReplicas: 2, AvailableReplicas: 2, Conditions: rolledOutConditions}), PhaseProgressing, false, true, true, false},
		{"rollout past its deadline", nil, deploymentWith(3, 2, stalled), PhaseDegraded, false, true, false, false},
		{"nothing available", nil, deploymentWith(3, 1, appsv1.DeploymentStatus{ObservedGeneration: 3, Replicas: 1, UpdatedReplicas: 1}), PhaseProgressing, false, false, true, false},
		{"apply refused", []error{errors.New("applying ConfigMap kube-system/coredns: forbidden")}, deploymentWith(3, 2, rolledOut), PhaseDegraded, false, true, false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := workload{detail: "Deployment kube-system/coredns does not exist"}
			if tc.d != nil {
				w = deploymentState(t, tc.d)
			}
			st := computeStatus(7, nil, tc.errs, w)
			assert.Equal(t, int64(7), st.ObservedGeneration)
			assert.Equal(t, tc.phase, st.Phase)
			assert.Equal(t, tc.healthy, st.Healthy)
			assert.Equal(t, tc.available, meta.IsStatusConditionTrue(st.Conditions, ConditionAvailable))
			assert.Equal(t, tc.progressing, meta.IsStatusConditionTrue(st.Conditions, ConditionProgressing))
			assert.Equal(t, tc.degraded, meta.IsStatusConditionTrue(st.Conditions, ConditionDegraded))
			assert.Len(t, st.Errors, len(tc.errs))
		})
	}
}

func TestComputeStatusBoundsErrorsAndKeepsTransitionTimes(t *testing.T) {
	var errs []error
	long := make([]byte, 2000)
	for i := range long {
		long[i] = 'x'
	}
	for range 20 {
		errs = append(errs, errors.New(string(long)))
	}
	st := computeStatus(1, nil, errs, workload{})
	assert.Len(t, st.Errors, maxErrors, "the CRD allows 16 errors")
	assert.Len(t, st.Errors[0], 1024, "the CRD allows 1024 characters an error")

	then := metav1.NewTime(metav1.Now().Add(-3600e9)).Rfc3339Copy()
	previous := computeStatus(1, nil, nil, workload{})
	for i := range previous.Conditions {
		previous.Conditions[i].LastTransitionTime = then
	}
	again := computeStatus(1, previous, nil, workload{})
	assert.True(t, equalStatus(previous, again), "an unchanged status is not written again")
	assert.Equal(t, then, meta.FindStatusCondition(again.Conditions, ConditionAvailable).LastTransitionTime)
}

// The state of each workload kind, and of one that does not exist: what the status's conditions
// are computed from.
func TestWorkloadState(t *testing.T) {
	w, err := workloadState(operator.Managed{Kind: "Deployment", Name: "coredns"}, "kube-system", nil)
	require.NoError(t, err)
	assert.Equal(t, workload{detail: "Deployment kube-system/coredns does not exist"}, w)

	w = deploymentState(t, deploymentWith(3, 2, appsv1.DeploymentStatus{ObservedGeneration: 3, Replicas: 2, UpdatedReplicas: 2, ReadyReplicas: 2, AvailableReplicas: 2, Conditions: rolledOutConditions}))
	assert.True(t, w.available && w.rolledOut, w.detail)
	assert.Equal(t, "Deployment kube-system/coredns: Deployment is available. Replicas: 2", w.detail)

	ds := func(generation int64, s appsv1.DaemonSetStatus) *unstructured.Unstructured {
		return toU(t, &appsv1.DaemonSet{TypeMeta: metav1.TypeMeta{APIVersion: "apps/v1", Kind: "DaemonSet"}, ObjectMeta: metav1.ObjectMeta{Name: "node-local-dns", Namespace: "kube-system", Generation: generation}, Status: s})
	}
	for _, tc := range []struct {
		name                 string
		obj                  *unstructured.Unstructured
		available, rolledOut bool
	}{
		{"every node runs the current template", ds(2, appsv1.DaemonSetStatus{ObservedGeneration: 2, DesiredNumberScheduled: 3, CurrentNumberScheduled: 3, UpdatedNumberScheduled: 3, NumberReady: 3, NumberAvailable: 3}), true, true},
		{"one node still runs the old one", ds(2, appsv1.DaemonSetStatus{ObservedGeneration: 2, DesiredNumberScheduled: 3, UpdatedNumberScheduled: 2, NumberAvailable: 3}), true, false},
		{"new generation not yet observed", ds(3, appsv1.DaemonSetStatus{ObservedGeneration: 2, DesiredNumberScheduled: 3, UpdatedNumberScheduled: 3, NumberAvailable: 3}), true, false},
		{"nothing available", ds(2, appsv1.DaemonSetStatus{ObservedGeneration: 2, DesiredNumberScheduled: 3, UpdatedNumberScheduled: 3}), false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w, err := workloadState(operator.Managed{Kind: "DaemonSet", Name: "node-local-dns"}, "kube-system", tc.obj)
			require.NoError(t, err)
			assert.Equal(t, tc.available, w.available, w.detail)
			assert.Equal(t, tc.rolledOut, w.rolledOut, w.detail)
		})
	}
	_, err = workloadState(operator.Managed{Kind: "ConfigMap", Name: "x"}, "kube-system", toU(t, &appsv1.Deployment{}))
	assert.ErrorContains(t, err, "no rule says when it is available")
}
