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
	"sort"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"k8s.io/kops/pkg/kubemanifest"
	"k8s.io/kops/pkg/operator"
)

// Addon is what is specific to one operator: its descriptor and how it renders the spec S of its
// custom resource.
type Addon[S comparable] struct {
	Descriptor *operator.Descriptor
	// Render is the renderer kops uses too; its manifest holds the managed objects for spec.
	Render func(spec S) ([]byte, error)
	// Check refuses a spec the CRD admits but the operator must not apply; nil accepts any.
	// Whoever may write the custom resource could hand the operator anything the CRD admits.
	Check func(spec S) error
	// CheckApply refuses to apply m given the cached current object (nil if absent); nil accepts any.
	CheckApply func(spec S, m operator.Managed, cached *unstructured.Unstructured) error
}

// FieldManager is the operator's field manager (operator.Descriptor.FieldManager).
func (a *Addon[S]) FieldManager() string { return a.Descriptor.FieldManager() }

type managed struct {
	operator.Managed
	gvr schema.GroupVersionResource
}

// applyRank puts workloads last, in a phase of their own, so their new pods find their
// configuration.
var applyRank = map[string]int{"ServiceAccount": 0, "ConfigMap": 1, "Service": 2}

func rank(kind string) int {
	if _, workload := kubemanifest.PodSpecPath(kind); workload {
		return len(applyRank) + 1
	}
	if r, ok := applyRank[kind]; ok {
		return r
	}
	return len(applyRank)
}

// managedObjects returns d's managed objects in apply order and the phases, as indexes into them.
func managedObjects(d *operator.Descriptor) ([]managed, [][]int, error) {
	var out []managed
	for _, m := range d.Managed {
		gvr, ok := operator.ManagedResource(m.Kind)
		if !ok {
			return nil, nil, fmt.Errorf("operator %s: %s is not a kind an operator may manage", d.AddonName, m.Kind)
		}
		out = append(out, managed{Managed: m, gvr: gvr})
	}
	sort.SliceStable(out, func(i, j int) bool { return rank(out[i].Kind) < rank(out[j].Kind) })
	var phases [][]int
	for i, m := range out {
		workload := rank(m.Kind) > len(applyRank)
		if len(phases) == 0 || (workload && rank(out[i-1].Kind) <= len(applyRank)) {
			phases = append(phases, nil)
		}
		phases[len(phases)-1] = append(phases[len(phases)-1], i)
	}
	return out, phases, nil
}

// Objects renders spec and returns the managed objects in apply order; the rest of the rendering
// is outside the operator's rights.
func (a *Addon[S]) Objects(spec S) ([]*unstructured.Unstructured, error) {
	d := a.Descriptor
	manifest, err := a.Render(spec)
	if err != nil {
		return nil, err
	}
	// The same checks the policy is derived with: what it could not confine is not applied.
	rendered, err := d.ManagedObjects(manifest)
	if err != nil {
		return nil, err
	}
	byKey := map[string]*unstructured.Unstructured{}
	for i, m := range d.Managed {
		byKey[m.Kind+"/"+m.Name] = &unstructured.Unstructured{Object: rendered[i]}
	}
	objects, _, err := managedObjects(d)
	if err != nil {
		return nil, err
	}
	out := make([]*unstructured.Unstructured, 0, len(objects))
	for _, m := range objects {
		u := byKey[m.Kind+"/"+m.Name]
		// Channels' metadata is left to channels: applying it would flip the label back after a handover.
		labels, annotations := u.GetLabels(), u.GetAnnotations()
		for _, k := range operator.ChannelsLabels {
			delete(labels, k)
		}
		for _, k := range operator.ChannelsAnnotations {
			delete(annotations, k)
		}
		u.SetLabels(labels)
		u.SetAnnotations(annotations)
		out = append(out, u)
	}
	return out, nil
}
