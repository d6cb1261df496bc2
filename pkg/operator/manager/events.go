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
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/tools/record"
)

// Event reasons on the custom resource.
const (
	// ReasonApplied (Normal): objects were applied because their rendering or the server's copy changed.
	ReasonApplied = "Applied"
	// ReasonAdopted (Normal): an object another field manager wrote was taken over.
	ReasonAdopted = "Adopted"
	// ReasonApplyFailed (Warning): the server or Addon.CheckApply refused an apply.
	ReasonApplyFailed = "ApplyFailed"
	ReasonInvalidSpec = "InvalidSpec"
)

// newEventRecorder records events with reporter as both component and host: the one source the
// admission policy allows, since an event naming a host would speak for that node. Recording ends
// with ctx.
func newEventRecorder(ctx context.Context, client dynamic.Interface, reporter string) record.EventRecorder {
	// Objects are unstructured and carry their kind, so the scheme is empty.
	scheme := runtime.NewScheme()
	broadcaster := record.NewBroadcaster(record.WithContext(ctx))
	broadcaster.StartRecordingToSink(&eventSink{ctx: ctx, client: client})
	return broadcaster.NewRecorder(scheme, corev1.EventSource{Component: reporter, Host: reporter})
}

// adoptedFrom returns the field managers of cached when fieldManager is not among them; nil when it
// is or cached is nil.
func adoptedFrom(cached *unstructured.Unstructured, fieldManager string) []string {
	if cached == nil {
		return nil
	}
	var others []string
	for _, f := range cached.GetManagedFields() {
		if f.Manager == fieldManager {
			return nil
		}
		if !slices.Contains(others, f.Manager) {
			others = append(others, f.Manager)
		}
	}
	if len(others) == 0 {
		others = []string{"no field manager"}
	}
	return others
}

func (c *Controller[S]) recordApplied(owner *unstructured.Unstructured, applied []string, adopted map[string][]string) {
	if c.events == nil {
		return
	}
	for _, name := range applied {
		if from, ok := adopted[name]; ok {
			c.events.Eventf(owner, corev1.EventTypeNormal, ReasonAdopted, "Took over %s from %s", name, strings.Join(from, ", "))
		}
	}
	if len(applied) > 0 {
		c.events.Eventf(owner, corev1.EventTypeNormal, ReasonApplied, "Applied %s", strings.Join(applied, ", "))
	}
}

func (c *Controller[S]) recordFailure(owner *unstructured.Unstructured, reason string, err error) {
	if c.events == nil {
		return
	}
	msg := err.Error()
	if len(msg) > 1024 {
		msg = msg[:1021] + "..."
	}
	c.events.Event(owner, corev1.EventTypeWarning, reason, msg)
}
