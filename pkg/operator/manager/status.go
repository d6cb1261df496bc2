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
	"fmt"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/cli-utils/pkg/kstatus/status"

	"k8s.io/kops/pkg/health"
	"k8s.io/kops/pkg/operator"
)

const (
	ConditionAvailable   = "Available"
	ConditionProgressing = "Progressing"
	ConditionDegraded    = "Degraded"
)

const (
	PhaseReady       = "Ready"
	PhaseProgressing = "Progressing"
	PhaseDegraded    = "Degraded"
)

// maxErrors is the CRD's bound on status.errors.
const maxErrors = 16

type workload struct {
	// As pkg/health judges them; stalled means the rollout will not finish without a change.
	available, rolledOut, stalled bool
	detail                        string
}

// computeStatus keeps previous's condition transition times.
func computeStatus(generation int64, previous *operator.Status, errs []error, w workload) *operator.Status {
	st := &operator.Status{ObservedGeneration: generation}
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

	if w.available {
		set(ConditionAvailable, true, "MinimumReplicasAvailable", w.detail)
	} else {
		set(ConditionAvailable, false, "NoReplicasAvailable", w.detail)
	}
	switch {
	case w.rolledOut:
		set(ConditionProgressing, false, "RolloutComplete", w.detail)
	case w.stalled:
		set(ConditionProgressing, false, "RolloutStalled", w.detail)
	default:
		set(ConditionProgressing, true, "RollingOut", w.detail)
	}
	if len(errs) > 0 {
		set(ConditionDegraded, true, "ReconcileFailed", st.Errors[0])
	} else {
		set(ConditionDegraded, false, "Reconciled", "every managed object is applied")
	}

	switch {
	case len(errs) > 0 || w.stalled:
		st.Phase = PhaseDegraded
	case w.available && w.rolledOut:
		st.Phase = PhaseReady
		st.Healthy = true
	default:
		st.Phase = PhaseProgressing
	}
	return st
}

// workloadState judges m from its cached copy u, nil when it does not exist.
func workloadState(m operator.Managed, namespace string, u *unstructured.Unstructured) (workload, error) {
	if u == nil {
		return workload{detail: fmt.Sprintf("%s %s/%s does not exist", m.Kind, namespace, m.Name)}, nil
	}
	if m.Kind != "Deployment" && m.Kind != "DaemonSet" {
		return workload{}, fmt.Errorf("%s %s/%s: no rule says when it is available", m.Kind, namespace, m.Name)
	}
	h, err := health.Of(u)
	if err != nil {
		return workload{}, err
	}
	return workload{
		available: h.Available,
		rolledOut: h.Current(),
		stalled:   h.Status == status.FailedStatus,
		detail:    fmt.Sprintf("%s %s/%s: %s", m.Kind, namespace, m.Name, h.Message),
	}, nil
}
