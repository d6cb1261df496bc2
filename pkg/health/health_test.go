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

package health

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/cli-utils/pkg/kstatus/status"
)

func toU(t *testing.T, obj runtime.Object, kind string) *unstructured.Unstructured {
	t.Helper()
	m, err := runtime.DefaultUnstructuredConverter.ToUnstructured(obj)
	require.NoError(t, err)
	u := &unstructured.Unstructured{Object: m}
	if kind == "Pod" {
		u.SetAPIVersion("v1")
	} else {
		u.SetAPIVersion("apps/v1")
	}
	u.SetKind(kind)
	return u
}

// rolledOut is what the Deployment controller reports once every replica runs the current template.
var rolledOut = []appsv1.DeploymentCondition{
	{Type: appsv1.DeploymentAvailable, Status: corev1.ConditionTrue, Reason: "MinimumReplicasAvailable"},
	{Type: appsv1.DeploymentProgressing, Status: corev1.ConditionTrue, Reason: "NewReplicaSetAvailable"},
}

func deployment(generation int64, s appsv1.DeploymentStatus) *appsv1.Deployment {
	return &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: "coredns", Namespace: "kube-system", Generation: generation},
		Spec:       appsv1.DeploymentSpec{Replicas: ptr.To(int32(2)), ProgressDeadlineSeconds: ptr.To(int32(600))},
		Status:     s,
	}
}

func daemonSet(generation int64, s appsv1.DaemonSetStatus) *appsv1.DaemonSet {
	return &appsv1.DaemonSet{ObjectMeta: metav1.ObjectMeta{Name: "kube2iam", Namespace: "kube-system", Generation: generation}, Status: s}
}

func pod(phase corev1.PodPhase, ready bool, created time.Time, extra ...func(*corev1.Pod)) *corev1.Pod {
	p := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "p", Namespace: "kube-system", CreationTimestamp: metav1.NewTime(created)},
		Status:     corev1.PodStatus{Phase: phase},
	}
	if ready {
		p.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue}}
	}
	for _, f := range extra {
		f(p)
	}
	return p
}

func TestOf(t *testing.T) {
	full := appsv1.DeploymentStatus{ObservedGeneration: 3, Replicas: 2, UpdatedReplicas: 2, ReadyReplicas: 2, AvailableReplicas: 2, Conditions: rolledOut}
	dsFull := appsv1.DaemonSetStatus{ObservedGeneration: 2, DesiredNumberScheduled: 3, CurrentNumberScheduled: 3, UpdatedNumberScheduled: 3, NumberReady: 3, NumberAvailable: 3}
	long := time.Now().Add(-time.Hour)
	with := func(s appsv1.DeploymentStatus, f func(*appsv1.DeploymentStatus)) appsv1.DeploymentStatus {
		f(&s)
		return s
	}
	withDS := func(s appsv1.DaemonSetStatus, f func(*appsv1.DaemonSetStatus)) appsv1.DaemonSetStatus {
		f(&s)
		return s
	}
	for _, tc := range []struct {
		name      string
		obj       runtime.Object
		kind      string
		status    status.Status
		observed  bool
		available bool
		message   string
	}{
		{"Deployment rolled out", deployment(3, full), "Deployment", status.CurrentStatus, true, true, "Deployment is available. Replicas: 2"},
		{"Deployment whose controller never wrote status", deployment(1, appsv1.DeploymentStatus{}), "Deployment", status.InProgressStatus, false, false,
			"generation 1 not yet observed by its controller"},
		{"Deployment with a newer generation than observed", deployment(4, full), "Deployment", status.InProgressStatus, false, true,
			"generation 4 not yet observed by its controller"},
		{"Deployment with one replica of two updated", deployment(3, with(full, func(s *appsv1.DeploymentStatus) { s.UpdatedReplicas = 1 })),
			"Deployment", status.InProgressStatus, true, true, "Updated: 1/2"},
		{"Deployment with no replica available", deployment(3, with(full, func(s *appsv1.DeploymentStatus) {
			s.AvailableReplicas, s.ReadyReplicas = 0, 0
			s.Conditions = []appsv1.DeploymentCondition{{Type: appsv1.DeploymentAvailable, Status: corev1.ConditionFalse, Reason: "MinimumReplicasUnavailable"}}
		})), "Deployment", status.InProgressStatus, true, false, "Available: 0/2"},
		{"Deployment available whose new ReplicaSet is not yet", deployment(3, with(full, func(s *appsv1.DeploymentStatus) { s.Conditions = rolledOut[:1] })),
			"Deployment", status.InProgressStatus, true, true, "ReplicaSet not Available"},
		{"Deployment past its progress deadline", deployment(3, with(full, func(s *appsv1.DeploymentStatus) {
			s.UpdatedReplicas = 1
			s.Conditions = []appsv1.DeploymentCondition{rolledOut[0], {Type: appsv1.DeploymentProgressing, Status: corev1.ConditionFalse, Reason: "ProgressDeadlineExceeded"}}
		})), "Deployment", status.FailedStatus, true, true, "Progress deadline exceeded"},

		{"DaemonSet ready on every node", daemonSet(2, dsFull), "DaemonSet", status.CurrentStatus, true, true, "All replicas scheduled as expected. Replicas: 3"},
		{"DaemonSet whose controller never wrote status", daemonSet(1, appsv1.DaemonSetStatus{}), "DaemonSet", status.InProgressStatus, false, false,
			"generation 1 not yet observed by its controller"},
		{"DaemonSet with a newer generation than observed", daemonSet(3, dsFull), "DaemonSet", status.InProgressStatus, false, true,
			"generation 3 not yet observed by its controller"},
		{"DaemonSet with one node on the old template", daemonSet(2, withDS(dsFull, func(s *appsv1.DaemonSetStatus) { s.UpdatedNumberScheduled = 2 })),
			"DaemonSet", status.InProgressStatus, true, true, "Updated: 2/3"},
		{"DaemonSet with one node not ready", daemonSet(2, withDS(dsFull, func(s *appsv1.DaemonSetStatus) { s.NumberReady, s.NumberAvailable = 2, 2 })),
			"DaemonSet", status.InProgressStatus, true, true, "Available: 2/3"},
		{"DaemonSet with nothing available", daemonSet(2, withDS(dsFull, func(s *appsv1.DaemonSetStatus) { s.NumberReady, s.NumberAvailable = 0, 0 })),
			"DaemonSet", status.InProgressStatus, true, false, "Available: 0/3"},

		{"Pod ready", pod(corev1.PodRunning, true, long), "Pod", status.CurrentStatus, true, true, "Pod is Ready"},
		{"Pod running, not ready", pod(corev1.PodRunning, false, long), "Pod", status.InProgressStatus, true, false, "Pod is running but is not Ready"},
		{"Pod not yet observed", pod("", false, long), "Pod", status.InProgressStatus, true, false, "Pod phase not available"},
		{"Pod crash-looping", pod(corev1.PodRunning, false, long, func(p *corev1.Pod) {
			p.Status.ContainerStatuses = []corev1.ContainerStatus{{Name: "c", State: corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: "CrashLoopBackOff"}}}}
		}), "Pod", status.FailedStatus, true, false, "Containers in CrashLoop state: c"},
		{"Pod unschedulable for long", pod(corev1.PodPending, false, long, func(p *corev1.Pod) {
			p.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodScheduled, Status: corev1.ConditionFalse, Reason: "Unschedulable"}}
		}), "Pod", status.FailedStatus, true, false, "Pod could not be scheduled"},
		{"Pod being deleted", pod(corev1.PodRunning, true, long, func(p *corev1.Pod) { p.DeletionTimestamp = ptr.To(metav1.Now()) }),
			"Pod", status.TerminatingStatus, true, false, "Resource scheduled for deletion"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := Of(toU(t, tc.obj, tc.kind))
			require.NoError(t, err)
			assert.Equal(t, tc.status, r.Status, r.Message)
			assert.Equal(t, tc.status == status.CurrentStatus, r.Current())
			assert.Equal(t, tc.observed, r.Observed, "observed")
			assert.Equal(t, tc.available, r.Available, "available")
			assert.Equal(t, tc.message, r.Message)
		})
	}
}

func TestOfRefusesAnObjectWithoutKind(t *testing.T) {
	u := &unstructured.Unstructured{Object: map[string]any{"metadata": map[string]any{"name": "coredns", "namespace": "kube-system"}}}
	_, err := Of(u)
	assert.ErrorContains(t, err, "kube-system/coredns has no kind")
}
