package app

import (
	"context"
	"fmt"
	"strings"
	"sync"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"k8s.io/kops/pkg/model/components/corednsoperator"
	"k8s.io/kops/pkg/model/components/operator"
)

// applyPhases are managedObjects' indexes in the order they are applied: what the Deployment
// mounts, runs as and is reached by together, then the Deployment, so its new pods find their
// configuration. The objects of a phase are applied concurrently.
var applyPhases = [][]int{{0, 1, 2}, {3}}

// rendering is the rendering of one spec, kept so that a reconcile without a spec change (drift,
// the Deployment's status) renders and decodes nothing.
type rendering struct {
	spec    Spec
	objects []*unstructured.Unstructured
	hashes  []string
}

// render returns the managed objects for spec, from the last rendering when spec is the same.
func (c *Controller) render(spec Spec) (*rendering, error) {
	if c.last != nil && c.last.spec == spec {
		return c.last, nil
	}
	objects, err := desiredObjects(spec, c.facts)
	if err != nil {
		return nil, err
	}
	r := &rendering{spec: spec, objects: objects, hashes: make([]string, len(objects))}
	for i, o := range objects {
		if r.hashes[i], err = objectHash(o); err != nil {
			return nil, fmt.Errorf("hashing rendered %s %s: %w", managedObjects[i].kind, managedObjects[i].name, err)
		}
	}
	c.last = r
	return r, nil
}

// apply server-side applies the managed objects whose rendering changed since this process last
// applied them or that someone else changed since (appliedState), and returns what went wrong
// with each. With nothing changed it sends no request. Events on owner, the CoreDNS object, say
// what the server changed, what was taken over and what was refused.
func (c *Controller) apply(ctx context.Context, owner *unstructured.Unstructured, spec Spec) []error {
	r, err := c.render(spec)
	if err != nil {
		err = fmt.Errorf("spec: %w", err)
		c.recordFailure(owner, ReasonInvalidSpec, err)
		return []error{err}
	}
	var errs []error
	var applied []string // what the server changed
	adopted := map[string][]string{}
	for _, phase := range applyPhases {
		results := make([]error, len(phase))
		changed := make([]bool, len(phase))
		var wg sync.WaitGroup
		for j, i := range phase {
			m := managedObjects[i]
			cached, err := c.cached(m.gvr, m.name)
			if err != nil {
				results[j] = err
				continue
			}
			if c.applied.upToDate(appliedKey(m.gvr, m.name), r.hashes[i], cached) {
				continue
			}
			if m.gvr == servicesGVR {
				if err := c.checkClusterIP(spec.DNSIP); err != nil {
					results[j] = err
					continue
				}
			}
			if from := adoptedFrom(cached); from != nil {
				adopted[describe(m)] = from
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
				applied = append(applied, describe(managedObjects[phase[j]]))
			}
		}
	}
	c.recordApplied(owner, applied, adopted)
	return errs
}

// describe names a managed object as events and errors do.
func describe(m managed) string {
	return m.kind + " " + corednsoperator.WatchNamespace + "/" + m.name
}

// applyOne applies one object, records it as applied, and says whether the server changed it
// (an apply that changes nothing keeps the object's resourceVersion).
func (c *Controller) applyOne(ctx context.Context, m managed, obj *unstructured.Unstructured, hash string, cached *unstructured.Unstructured) (bool, error) {
	client := c.client.Resource(m.gvr).Namespace(corednsoperator.WatchNamespace)
	got, err := client.Apply(ctx, m.name, obj, metav1.ApplyOptions{FieldManager: FieldManager, Force: true})
	if err != nil && cached != nil && strings.Contains(err.Error(), "ValidatingAdmissionPolicy '"+corednsoperator.Descriptor().ExactPolicyName()+"'") {
		// Someone added to the object what kops does not render (an apply cannot remove fields
		// others own), so the merge is refused: the object is replaced by exactly the rendering.
		exact := &unstructured.Unstructured{Object: operator.ExactWrite(m.kind, obj.Object, cached.Object)}
		got, err = client.Update(ctx, exact, metav1.UpdateOptions{FieldManager: FieldManager})
	}
	if err != nil {
		c.applied.forget(appliedKey(m.gvr, m.name))
		return false, fmt.Errorf("applying %s: %w", describe(m), err)
	}
	c.applied.applied(appliedKey(m.gvr, m.name), hash, got.GetResourceVersion())
	return cached == nil || cached.GetResourceVersion() != got.GetResourceVersion(), nil
}

func appliedKey(gvr schema.GroupVersionResource, name string) string {
	return gvr.Resource + "/" + name
}
