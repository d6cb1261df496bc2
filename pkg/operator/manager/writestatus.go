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
	"context"
	"encoding/json"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/klog/v2"

	"k8s.io/kops/pkg/operator"
)

// writeStatus writes nothing when the status is unchanged.
func (c *Controller[S]) writeStatus(ctx context.Context, u *unstructured.Unstructured, w workload, errs []error) error {
	var previous *operator.Status
	if raw, ok := u.Object["status"]; ok {
		previous = &operator.Status{}
		if m, isMap := raw.(map[string]any); !isMap || runtime.DefaultUnstructuredConverter.FromUnstructured(m, previous) != nil {
			previous = nil
		}
	}
	st := computeStatus(u.GetGeneration(), previous, errs, w)
	if previous != nil && equalStatus(previous, st) {
		return nil
	}
	crd := c.addon.Descriptor.CRD
	body, err := json.Marshal(map[string]any{
		"apiVersion": crd.APIVersion(),
		"kind":       crd.Kind,
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
	_, err = c.client.Resource(c.resource).Namespace(u.GetNamespace()).ApplyStatus(ctx, u.GetName(), patch, metav1.ApplyOptions{FieldManager: c.addon.FieldManager(), Force: true})
	if err != nil && !apierrors.IsNotFound(err) {
		return fmt.Errorf("writing the status of %s %s: %w", crd.Kind, c.key, err)
	}
	klog.FromContext(ctx).Info("Status", "phase", st.Phase, "healthy", st.Healthy, "observedGeneration", st.ObservedGeneration, "errors", st.Errors)
	return nil
}

// equalStatus compares what the operator decides, ignoring condition timestamps.
func equalStatus(a, b *operator.Status) bool {
	strip := func(s *operator.Status) string {
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
