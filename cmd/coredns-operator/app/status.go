package app

import (
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"k8s.io/kops/pkg/model/components/corednsoperator"
)

// Condition types, as Kubernetes workloads name them.
const (
	ConditionAvailable   = "Available"
	ConditionProgressing = "Progressing"
	ConditionDegraded    = "Degraded"
)

// Phases, the one-word summary `kubectl get corednses` shows.
const (
	PhaseReady       = "Ready"
	PhaseProgressing = "Progressing"
	PhaseDegraded    = "Degraded"
)

// maxErrors is the CRD's bound on status.errors.
const maxErrors = 16

// computeStatus is the status for the object's generation given the errors of this reconcile and
// the Deployment's state (nil when there is none). previous keeps conditions' transition times.
func computeStatus(generation int64, previous *corednsoperator.CoreDNSStatus, errs []error, d *appsv1.Deployment) *corednsoperator.CoreDNSStatus {
	st := &corednsoperator.CoreDNSStatus{ObservedGeneration: generation}
	if previous != nil {
		st.Conditions = append([]metav1.Condition(nil), previous.Conditions...)
	}
	for _, err := range errs {
		if len(st.Errors) == maxErrors {
			break
		}
		msg := err.Error()
		if len(msg) > 1024 {
			msg = msg[:1021] + "..."
		}
		st.Errors = append(st.Errors, msg)
	}
	set := func(t string, ok bool, reason, message string) {
		s := metav1.ConditionFalse
		if ok {
			s = metav1.ConditionTrue
		}
		if len(message) > 1024 {
			message = message[:1021] + "..."
		}
		meta.SetStatusCondition(&st.Conditions, metav1.Condition{Type: t, Status: s, Reason: reason, Message: message, ObservedGeneration: generation})
	}

	available, rolledOut, detail := deploymentState(d)
	if available {
		set(ConditionAvailable, true, "MinimumReplicasAvailable", detail)
	} else {
		set(ConditionAvailable, false, "NoReplicasAvailable", detail)
	}
	if rolledOut {
		set(ConditionProgressing, false, "RolloutComplete", detail)
	} else {
		set(ConditionProgressing, true, "RollingOut", detail)
	}
	if len(errs) > 0 {
		set(ConditionDegraded, true, "ReconcileFailed", st.Errors[0])
	} else {
		set(ConditionDegraded, false, "Reconciled", "every managed object is applied")
	}

	switch {
	case len(errs) > 0:
		st.Phase = PhaseDegraded
	case available && rolledOut:
		st.Phase = PhaseReady
		st.Healthy = true
	default:
		st.Phase = PhaseProgressing
	}
	return st
}

// deploymentState says whether the Deployment serves (some replica available) and whether its
// controller has rolled out the current template to every replica.
func deploymentState(d *appsv1.Deployment) (available, rolledOut bool, detail string) {
	if d == nil {
		return false, false, fmt.Sprintf("Deployment %s/%s does not exist", corednsoperator.WatchNamespace, corednsoperator.CoreDNSDeployment)
	}
	want := int32(1)
	if d.Spec.Replicas != nil {
		want = *d.Spec.Replicas
	}
	s := d.Status
	detail = fmt.Sprintf("Deployment %s/%s: %d of %d replicas updated, %d available (generation %d, observed %d)",
		d.Namespace, d.Name, s.UpdatedReplicas, want, s.AvailableReplicas, d.Generation, s.ObservedGeneration)
	available = s.AvailableReplicas > 0
	rolledOut = s.ObservedGeneration >= d.Generation && s.UpdatedReplicas == want && s.Replicas == want && s.AvailableReplicas == want
	return available, rolledOut, detail
}
