package app

import (
	"context"
	"fmt"
	"sync"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"k8s.io/kops/pkg/model/components/corednsoperator"
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
// with each. With nothing changed it sends no request.
func (c *Controller) apply(ctx context.Context, spec Spec) []error {
	r, err := c.render(spec)
	if err != nil {
		return []error{fmt.Errorf("spec: %w", err)}
	}
	var errs []error
	for _, phase := range applyPhases {
		results := make([]error, len(phase))
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
			wg.Add(1)
			go func() {
				defer wg.Done()
				results[j] = c.applyOne(ctx, m, r.objects[i], r.hashes[i])
			}()
		}
		wg.Wait()
		for _, err := range results {
			if err != nil {
				errs = append(errs, err)
			}
		}
	}
	return errs
}

// applyOne applies one object and records it as applied.
func (c *Controller) applyOne(ctx context.Context, m managed, obj *unstructured.Unstructured, hash string) error {
	got, err := c.client.Resource(m.gvr).Namespace(corednsoperator.WatchNamespace).Apply(ctx, m.name, obj, metav1.ApplyOptions{FieldManager: FieldManager, Force: true})
	if err != nil {
		c.applied.forget(appliedKey(m.gvr, m.name))
		return fmt.Errorf("applying %s %s/%s: %w", m.kind, corednsoperator.WatchNamespace, m.name, err)
	}
	c.applied.applied(appliedKey(m.gvr, m.name), hash, got.GetResourceVersion())
	return nil
}

func appliedKey(gvr schema.GroupVersionResource, name string) string {
	return gvr.Resource + "/" + name
}
