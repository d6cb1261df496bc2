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
	"fmt"
	"sync"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	channelsapi "k8s.io/kops/channels/pkg/api"
	"k8s.io/kops/pkg/operator"
)

// rendering is kept so that a reconcile without a spec change renders nothing.
type rendering[S comparable] struct {
	spec    S
	objects []*unstructured.Unstructured
	hashes  []string
}

func (c *Controller[S]) render(spec S) (*rendering[S], error) {
	if c.last != nil && c.last.spec == spec {
		return c.last, nil
	}
	objects, err := c.addon.Objects(spec)
	if err != nil {
		return nil, err
	}
	r := &rendering[S]{spec: spec, objects: objects, hashes: make([]string, len(objects))}
	for i, o := range objects {
		if r.hashes[i], err = objectHash(o); err != nil {
			return nil, fmt.Errorf("hashing rendered %s %s: %w", c.managed[i].Kind, c.managed[i].Name, err)
		}
	}
	c.last = r
	return r, nil
}

// apply server-side applies, phase by phase, the objects that are not upToDate and returns an
// error per failed object; a phase with a failure ends it (the next reconcile retries). Events on
// owner say what changed, was taken over or was refused.
func (c *Controller[S]) apply(ctx context.Context, owner *unstructured.Unstructured, spec S) []error {
	r, err := c.render(spec)
	if err != nil {
		err = fmt.Errorf("spec: %w", err)
		c.recordFailure(owner, ReasonInvalidSpec, err)
		return []error{err}
	}
	var errs []error
	var applied []string // what the server changed
	adopted := map[string][]string{}
	for _, phase := range c.phases {
		results := make([]error, len(phase))
		changed := make([]bool, len(phase))
		var wg sync.WaitGroup
		for j, i := range phase {
			m := c.managed[i]
			cached, err := c.cached(m.gvr, m.Name)
			if err != nil {
				results[j] = err
				continue
			}
			if c.applied.upToDate(appliedKey(m.gvr, m.Name), r.hashes[i], cached) {
				continue
			}
			last, wrote := c.applied.lastAddon(appliedKey(m.gvr, m.Name))
			if holder := heldForHandover(cached, owner, last, wrote); holder != "" {
				results[j] = fmt.Errorf("%s was given back to addon %s (its label, since this operator last wrote it): not written", c.describe(m), holder)
				continue
			}
			if c.addon.CheckApply != nil {
				if err := c.addon.CheckApply(spec, m.Managed, cached); err != nil {
					results[j] = err
					continue
				}
			}
			if from := adoptedFrom(cached, c.addon.FieldManager()); from != nil {
				adopted[c.describe(m)] = from
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				changed[j], results[j] = c.applyOne(ctx, m, r.objects[i], r.hashes[i], cached)
			}()
		}
		wg.Wait()
		for j, err := range results {
			switch {
			case err != nil:
				errs = append(errs, err)
				c.recordFailure(owner, ReasonApplyFailed, err)
			case changed[j]:
				applied = append(applied, c.describe(c.managed[phase[j]]))
			}
		}
		// A workload is applied only once what it mounts is: a Deployment rolled for a new
		// Corefile whose ConfigMap was refused would start pods on the old one and not roll again.
		if len(errs) > 0 {
			break
		}
	}
	c.recordApplied(owner, applied, adopted)
	return errs
}

func (c *Controller[S]) describe(m managed) string {
	return m.Kind + " " + c.addon.Descriptor.WatchNamespace + "/" + m.Name
}

// applyOne reports whether the server changed the object.
func (c *Controller[S]) applyOne(ctx context.Context, m managed, obj *unstructured.Unstructured, hash string, cached *unstructured.Unstructured) (bool, error) {
	d := c.addon.Descriptor
	client := c.client.Resource(m.gvr).Namespace(d.WatchNamespace)
	if cached != nil {
		// The apply holds only if the object is still the one read from the cache: a write the
		// cache has not shown yet (channels taking the object back, heldForHandover) makes it a
		// conflict, retried once the cache has it, rather than overwritten by force.
		obj = obj.DeepCopy()
		obj.SetResourceVersion(cached.GetResourceVersion())
	}
	got, err := client.Apply(ctx, m.Name, obj, metav1.ApplyOptions{FieldManager: c.addon.FieldManager(), Force: true})
	if denial, ok := channelsapi.AsPolicyDenial(err); ok && cached != nil && denial.Policy == d.ExactPolicyName() {
		// Fields another manager added cannot be removed by an apply, and the exact policy refuses
		// the merge, so the object is replaced by exactly the rendering.
		exact := &unstructured.Unstructured{Object: operator.ExactWrite(m.Kind, obj.Object, cached.Object)}
		got, err = client.Update(ctx, exact, metav1.UpdateOptions{FieldManager: c.addon.FieldManager()})
	}
	if err != nil {
		c.applied.forget(appliedKey(m.gvr, m.Name))
		return false, fmt.Errorf("applying %s: %w", c.describe(m), err)
	}
	c.applied.applied(appliedKey(m.gvr, m.Name), hash, got.GetResourceVersion(), got.GetLabels()[channelsapi.LabelAddonName])
	return cached == nil || cached.GetResourceVersion() != got.GetResourceVersion(), nil
}

func appliedKey(gvr schema.GroupVersionResource, name string) string {
	return gvr.Resource + "/" + name
}

// heldForHandover returns the addon that took cached back from the custom resource's (owner's)
// addon, and "" when the operator may write it. Going back from the operator to kops's built-in
// addon (or client-side mode), channels applies the built-in Deployment first and retires the
// operator after; an operator still running in between put its own image back, so the pods never
// rolled to the built-in's (seen in a real rollout on the node tests' cluster). Taken back means: labelled
// with another addon that names owner's in its handover-to annotation, and a label other than the
// one the object had when this process last wrote it (wrote, last). An object that already carried
// that other label when the operator first wrote it (channels left the other addon's record alone,
// say) is adopted as before.
func heldForHandover(cached, owner *unstructured.Unstructured, last string, wrote bool) string {
	if cached == nil || !wrote {
		return ""
	}
	ours := owner.GetLabels()[channelsapi.LabelAddonName]
	holder := cached.GetLabels()[channelsapi.LabelAddonName]
	if ours == "" || holder == "" || holder == ours || holder == last || cached.GetAnnotations()[channelsapi.AnnotationHandoverTo] != ours {
		return ""
	}
	return holder
}
