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
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/record"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/klog/v2"

	"k8s.io/kops/pkg/operator"
)

// Controller watches the custom resource and its managed objects, each by name, and reconciles
// them into the rendering of its spec.
type Controller[S comparable] struct {
	addon  Addon[S]
	client dynamic.Interface
	// key is the queue's only key: every watched object belongs to the one custom resource.
	key      string
	resource schema.GroupVersionResource
	managed  []managed
	phases   [][]int
	queue    workqueue.TypedRateLimitingInterface[string]
	informer map[schema.GroupVersionResource]cache.SharedIndexInformer
	onSynced func()
	// applied and last are touched only by the reconcile goroutine.
	applied *appliedState
	last    *rendering[S]
	// events may be nil.
	events record.EventRecorder
}

// resyncPeriod is a safety net: every change the operator must undo comes as a watch event.
const resyncPeriod = 10 * time.Minute

// namedInformer lists and watches one object with fieldSelector metadata.name, the only way
// Kubernetes authorizes a list or watch limited by resourceNames.
func namedInformer(resource dynamic.ResourceInterface, name string) cache.SharedIndexInformer {
	selector := fields.OneTermEqualSelector("metadata.name", name).String()
	lw := &cache.ListWatch{
		ListWithContextFunc: func(ctx context.Context, o metav1.ListOptions) (runtime.Object, error) {
			o.FieldSelector = selector
			return resource.List(ctx, o)
		},
		WatchFuncWithContext: func(ctx context.Context, o metav1.ListOptions) (watch.Interface, error) {
			o.FieldSelector = selector
			return resource.Watch(ctx, o)
		},
	}
	return cache.NewSharedIndexInformer(lw, &unstructured.Unstructured{}, resyncPeriod, cache.Indexers{})
}

// NewController sets up one informer per watched object, so the rights need not allow listing the
// watch namespace. events may be nil.
func NewController[S comparable](client dynamic.Interface, events record.EventRecorder, addon Addon[S]) (*Controller[S], error) {
	d := addon.Descriptor
	objects, phases, err := managedObjects(d)
	if err != nil {
		return nil, err
	}
	c := &Controller[S]{
		addon:    addon,
		client:   client,
		key:      d.WatchNamespace + "/" + d.Instructions,
		resource: schema.GroupVersionResource{Group: d.CRD.Group, Version: d.CRD.Version, Resource: d.CRD.Resource},
		managed:  objects,
		phases:   phases,
		events:   events,
		queue:    workqueue.NewTypedRateLimitingQueueWithConfig(workqueue.DefaultTypedControllerRateLimiter[string](), workqueue.TypedRateLimitingQueueConfig[string]{Name: d.Instructions}),
		informer: map[schema.GroupVersionResource]cache.SharedIndexInformer{},
		applied:  newAppliedState(),
	}
	watchOne := func(gvr schema.GroupVersionResource, name string) {
		inf := namedInformer(client.Resource(gvr).Namespace(d.WatchNamespace), name)
		_, _ = inf.AddEventHandler(cache.ResourceEventHandlerFuncs{
			AddFunc: func(any) { c.queue.Add(c.key) },
			UpdateFunc: func(old, new any) {
				// Skip the operator's own status writes, which would double every reconcile.
				if gvr == c.resource && sameGeneration(old, new) {
					return
				}
				if gvr != c.resource && sameResourceVersion(old, new) {
					c.applied.forget(appliedKey(gvr, name))
				}
				c.queue.Add(c.key)
			},
			DeleteFunc: func(any) { c.queue.Add(c.key) },
		})
		c.informer[gvr] = inf
	}
	watchOne(c.resource, d.Instructions)
	for _, m := range c.managed {
		watchOne(m.gvr, m.Name)
	}
	return c, nil
}

func (c *Controller[S]) Run(ctx context.Context) error {
	logger := klog.FromContext(ctx)
	defer c.queue.ShutDown()
	synced := make([]cache.InformerSynced, 0, len(c.informer))
	var informers sync.WaitGroup
	defer informers.Wait()
	for _, inf := range c.informer {
		informers.Add(1)
		go func() {
			defer informers.Done()
			inf.Run(ctx.Done())
		}()
		synced = append(synced, inf.HasSynced)
	}
	if !cache.WaitForCacheSync(ctx.Done(), synced...) {
		return fmt.Errorf("waiting for the caches of %s and its objects: %w", c.key, ctx.Err())
	}
	logger.Info("Caches synced, reconciling")
	if c.onSynced != nil {
		c.onSynced()
	}
	c.queue.Add(c.key)
	go func() {
		<-ctx.Done()
		c.queue.ShutDown()
	}()
	for c.processNext(ctx) {
	}
	return nil
}

func (c *Controller[S]) processNext(ctx context.Context) bool {
	key, quit := c.queue.Get()
	if quit {
		return false
	}
	defer c.queue.Done(key)
	if err := c.Reconcile(ctx); err != nil {
		klog.FromContext(ctx).Error(err, "Reconcile failed, retrying", c.addon.Descriptor.Instructions, key)
		c.queue.AddRateLimited(key)
		return true
	}
	c.queue.Forget(key)
	return true
}

func (c *Controller[S]) cached(gvr schema.GroupVersionResource, name string) (*unstructured.Unstructured, error) {
	obj, exists, err := c.informer[gvr].GetStore().GetByKey(c.addon.Descriptor.WatchNamespace + "/" + name)
	if err != nil || !exists {
		return nil, err
	}
	u, ok := obj.(*unstructured.Unstructured)
	if !ok {
		return nil, fmt.Errorf("cache of %s holds a %T", gvr.Resource, obj)
	}
	return u, nil
}

// Reconcile applies the rendering of the spec and writes the status, which reports every problem.
// A returned error is retried with backoff, since a refusal may end without a new spec (kops
// re-applying the rights or the policy).
func (c *Controller[S]) Reconcile(ctx context.Context) error {
	logger := klog.FromContext(ctx)
	kind := c.addon.Descriptor.CRD.Kind
	u, err := c.cached(c.resource, c.addon.Descriptor.Instructions)
	if err != nil {
		return err
	}
	if u == nil {
		logger.V(2).Info("No " + kind + " object; nothing to do")
		return nil
	}
	var obj operator.Resource[S]
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(u.Object, &obj); err != nil {
		err = fmt.Errorf("reading %s %s: %w", kind, c.key, err)
		c.recordFailure(u, ReasonInvalidSpec, err)
		return c.writeStatus(ctx, u, c.absentWorkload(), []error{err})
	}
	if c.addon.Check != nil {
		if err := c.addon.Check(obj.Spec); err != nil {
			c.recordFailure(u, ReasonInvalidSpec, err)
			return c.writeStatus(ctx, u, c.absentWorkload(), []error{err})
		}
	}
	errs := c.apply(ctx, u, obj.Spec)
	w, err := c.workload()
	if err != nil {
		errs = append(errs, err)
	}
	if err := c.writeStatus(ctx, u, w, errs); err != nil {
		return err
	}
	if len(errs) > 0 {
		return fmt.Errorf("reconciling %s %s: %v", kind, c.key, errs)
	}
	return nil
}

// workloadObject is the first managed object with a pod template.
func (c *Controller[S]) workloadObject() (managed, bool) {
	for _, m := range c.managed {
		if rank(m.Kind) > len(applyRank) {
			return m, true
		}
	}
	return managed{}, false
}

func (c *Controller[S]) workload() (workload, error) {
	m, ok := c.workloadObject()
	if !ok {
		return workload{available: true, rolledOut: true, detail: "no workload"}, nil
	}
	u, err := c.cached(m.gvr, m.Name)
	if err != nil {
		return c.absentWorkload(), err
	}
	w, err := workloadState(m.Managed, c.addon.Descriptor.WatchNamespace, u)
	if err != nil {
		return c.absentWorkload(), err
	}
	return w, nil
}

func (c *Controller[S]) absentWorkload() workload {
	m, ok := c.workloadObject()
	if !ok {
		return workload{detail: "no workload"}
	}
	w, _ := workloadState(m.Managed, c.addon.Descriptor.WatchNamespace, nil)
	return w
}

// sameResourceVersion reports whether an update is a resync.
func sameResourceVersion(old, new any) bool {
	o, ok1 := old.(*unstructured.Unstructured)
	n, ok2 := new.(*unstructured.Unstructured)
	return ok1 && ok2 && o.GetResourceVersion() == n.GetResourceVersion()
}

func sameGeneration(old, new any) bool {
	o, ok1 := old.(*unstructured.Unstructured)
	n, ok2 := new.(*unstructured.Unstructured)
	return ok1 && ok2 && o.GetGeneration() == n.GetGeneration()
}
