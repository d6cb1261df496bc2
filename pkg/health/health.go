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
	"fmt"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/cli-utils/pkg/kstatus/status"
)

type Result struct {
	// Status is kstatus's: Current, InProgress, Failed (will not get there without a change) or Terminating.
	Status   status.Status
	Message  string
	Observed bool
	// Available says whether the workload serves at all: a replica available, or the Pod ready.
	Available bool
}

func (r Result) Current() bool { return r.Status == status.CurrentStatus }

// controlled kinds' controllers write status.observedGeneration; until then their status says nothing
// about the spec.
var controlled = map[schema.GroupKind]bool{
	{Group: "apps", Kind: "Deployment"}:  true,
	{Group: "apps", Kind: "DaemonSet"}:   true,
	{Group: "apps", Kind: "StatefulSet"}: true,
	{Group: "apps", Kind: "ReplicaSet"}:  true,
}

// Of judges u as read from the server. It adds to kstatus: a controlled kind without
// status.observedGeneration is not yet seen by its controller (kstatus skips the check then).
func Of(u *unstructured.Unstructured) (Result, error) {
	gk := u.GroupVersionKind().GroupKind()
	if gk.Kind == "" {
		return Result{}, fmt.Errorf("%s/%s has no kind: the object must be read as the server returns it", u.GetNamespace(), u.GetName())
	}
	res, err := status.Compute(u)
	if err != nil {
		return Result{}, fmt.Errorf("judging %s %s/%s: %w", gk.Kind, u.GetNamespace(), u.GetName(), err)
	}
	r := Result{Status: res.Status, Message: res.Message, Observed: true}
	observed, found, err := unstructured.NestedInt64(u.Object, "status", "observedGeneration")
	if err != nil {
		return Result{}, fmt.Errorf("%s %s/%s: %w", gk.Kind, u.GetNamespace(), u.GetName(), err)
	}
	if generation := u.GetGeneration(); (found && observed < generation) || (!found && controlled[gk]) {
		r.Observed = false
		r.Status = status.InProgressStatus
		r.Message = fmt.Sprintf("generation %d not yet observed by its controller", generation)
	}
	r.Available, err = available(gk, u, r.Current())
	if err != nil {
		return Result{}, fmt.Errorf("%s %s/%s: %w", gk.Kind, u.GetNamespace(), u.GetName(), err)
	}
	if r.Status == status.TerminatingStatus {
		r.Available = false
	}
	return r, nil
}

func available(gk schema.GroupKind, u *unstructured.Unstructured, current bool) (bool, error) {
	count := func(field string) (bool, error) {
		n, _, err := unstructured.NestedInt64(u.Object, "status", field)
		return n > 0, err
	}
	switch {
	case gk == schema.GroupKind{Group: "apps", Kind: "DaemonSet"}:
		return count("numberAvailable")
	case controlled[gk]:
		return count("availableReplicas")
	case gk == schema.GroupKind{Kind: "Pod"}:
		conditions, _, err := unstructured.NestedSlice(u.Object, "status", "conditions")
		if err != nil {
			return false, err
		}
		for _, c := range conditions {
			if m, ok := c.(map[string]any); ok && m["type"] == "Ready" && m["status"] == "True" {
				return true, nil
			}
		}
		return false, nil
	}
	return current, nil
}
