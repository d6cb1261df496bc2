package app

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
)

func deploymentWith(generation int64, replicas int32, s appsv1.DeploymentStatus) *appsv1.Deployment {
	return &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: "coredns", Namespace: "kube-system", Generation: generation},
		Spec:       appsv1.DeploymentSpec{Replicas: ptr.To(replicas)},
		Status:     s,
	}
}

func TestComputeStatus(t *testing.T) {
	rolledOut := appsv1.DeploymentStatus{ObservedGeneration: 3, Replicas: 2, UpdatedReplicas: 2, AvailableReplicas: 2}
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
		{"one replica of two updated", nil, deploymentWith(3, 2, appsv1.DeploymentStatus{ObservedGeneration: 3, Replicas: 2, UpdatedReplicas: 1, AvailableReplicas: 2}), PhaseProgressing, false, true, true, false},
		{"nothing available", nil, deploymentWith(3, 1, appsv1.DeploymentStatus{ObservedGeneration: 3, Replicas: 1, UpdatedReplicas: 1}), PhaseProgressing, false, false, true, false},
		{"apply refused", []error{errors.New("applying ConfigMap kube-system/coredns: forbidden")}, deploymentWith(3, 2, rolledOut), PhaseDegraded, false, true, false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st := computeStatus(7, nil, tc.errs, tc.d)
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
	st := computeStatus(1, nil, errs, nil)
	assert.Len(t, st.Errors, maxErrors, "the CRD allows 16 errors")
	assert.Len(t, st.Errors[0], 1024, "the CRD allows 1024 characters an error")

	then := metav1.NewTime(metav1.Now().Add(-3600e9)).Rfc3339Copy()
	previous := computeStatus(1, nil, nil, nil)
	for i := range previous.Conditions {
		previous.Conditions[i].LastTransitionTime = then
	}
	again := computeStatus(1, previous, nil, nil)
	assert.True(t, equalStatus(previous, again), "an unchanged status is not written again")
	assert.Equal(t, then, meta.FindStatusCondition(again.Conditions, ConditionAvailable).LastTransitionTime)
}
