package app

import (
	"context"
	"encoding/json"
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/klog/v2"

	"k8s.io/kops/pkg/model/components/corednsoperator"
)

// writeStatus applies the status for errs and d, unless it says what the object already says.
func (c *Controller) writeStatus(ctx context.Context, u *unstructured.Unstructured, d *appsv1.Deployment, errs []error) error {
	var previous *corednsoperator.CoreDNSStatus
	if raw, ok := u.Object["status"]; ok {
		previous = &corednsoperator.CoreDNSStatus{}
		if err := runtime.DefaultUnstructuredConverter.FromUnstructured(raw.(map[string]any), previous); err != nil {
			previous = nil
		}
	}
	st := computeStatus(u.GetGeneration(), previous, errs, d)
	if previous != nil && equalStatus(previous, st) {
		return nil
	}
	body, err := json.Marshal(map[string]any{
		"apiVersion": corednsoperator.APIVersion,
		"kind":       "CoreDNS",
		"metadata":   map[string]any{"name": u.GetName(), "namespace": u.GetNamespace()},
		"status":     st,
	})
	if err != nil {
		return err
	}
	patch := &unstructured.Unstructured{}
	if err := patch.UnmarshalJSON(body); err != nil {
		return err
	}
	_, err = c.client.Resource(corednsGVR).Namespace(u.GetNamespace()).ApplyStatus(ctx, u.GetName(), patch, metav1.ApplyOptions{FieldManager: FieldManager, Force: true})
	if err != nil && !apierrors.IsNotFound(err) {
		return fmt.Errorf("writing the status of CoreDNS %s: %w", reconcileKey, err)
	}
	klog.FromContext(ctx).Info("Status", "phase", st.Phase, "healthy", st.Healthy, "observedGeneration", st.ObservedGeneration, "errors", st.Errors)
	return nil
}

// equalStatus compares what the operator decides, ignoring condition timestamps.
func equalStatus(a, b *corednsoperator.CoreDNSStatus) bool {
	strip := func(s *corednsoperator.CoreDNSStatus) string {
		cp := *s
		cp.Conditions = nil
		for _, cond := range s.Conditions {
			cond.LastTransitionTime = metav1.Time{}
			cp.Conditions = append(cp.Conditions, cond)
		}
		b, _ := json.Marshal(cp)
		return string(b)
	}
	return strip(a) == strip(b)
}
