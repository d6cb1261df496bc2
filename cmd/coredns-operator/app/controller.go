package app

import (
	"context"
	"fmt"
	"net/netip"
	"strings"
	"sync"
	"time"

	appsv1 "k8s.io/api/apps/v1"
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

	"k8s.io/kops/pkg/corefile"
	"k8s.io/kops/pkg/model/components/corednsoperator"
)

// FieldManager is the operator's server-side apply field manager.
const FieldManager = "coredns-operator"

// reconcileKey is the work queue's only key: there is one CoreDNS object and every watched object
// belongs to it.
const reconcileKey = corednsoperator.WatchNamespace + "/" + corednsoperator.CoreDNSResource

// Controller watches the CoreDNS object and the objects rendered from it, each by name, and
// reconciles them into the rendering of its spec.
type Controller struct {
	client   dynamic.Interface
	facts    Facts
	queue    workqueue.TypedRateLimitingInterface[string]
	informer map[schema.GroupVersionResource]cache.SharedIndexInformer
	onSynced func()
	// applied is what this process last applied of each managed object; last is the last spec it
	// rendered (only the reconcile goroutine touches it).
	applied *appliedState
	last    *rendering
	// events records on the CoreDNS object; nil records nothing.
	events record.EventRecorder
}

// resyncPeriod is how often every managed object is applied again even though nothing was seen to
// change it: a safety net, since every change the operator must undo comes as a watch event.
const resyncPeriod = 10 * time.Minute

// namedInformer caches the one object name of resource: it lists and watches with fieldSelector
// metadata.name, the only way Kubernetes authorizes a list or watch limited by resourceNames. It
// is built on client-go's cache package and the dynamic client alone: the dynamic informer factory
// links client-go's typed clientset and informers for every API group, which made the binary
// about 15 MB larger in memory.
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

// NewController sets up one informer per watched object, each listing and watching only its one
// name (fieldSelector metadata.name), so the rights need not allow listing kube-system.
// Events are recorded with events (nil: none).
func NewController(client dynamic.Interface, events record.EventRecorder, facts Facts) *Controller {
	c := &Controller{
		client:   client,
		events:   events,
		facts:    facts,
		queue:    workqueue.NewTypedRateLimitingQueueWithConfig(workqueue.DefaultTypedControllerRateLimiter[string](), workqueue.TypedRateLimitingQueueConfig[string]{Name: "coredns"}),
		informer: map[schema.GroupVersionResource]cache.SharedIndexInformer{},
		applied:  newAppliedState(),
	}
	watch := func(gvr schema.GroupVersionResource, name string) {
		inf := namedInformer(client.Resource(gvr).Namespace(corednsoperator.WatchNamespace), name)
		_, _ = inf.AddEventHandler(cache.ResourceEventHandlerFuncs{
			AddFunc: func(any) { c.queue.Add(reconcileKey) },
			UpdateFunc: func(old, new any) {
				// The operator's own status writes change the CoreDNS object without a new
				// generation; reconciling after each would double every reconcile.
				if gvr == corednsGVR && sameGeneration(old, new) {
					return
				}
				// A resync (the same object again) applies the managed object again.
				if gvr != corednsGVR && sameResourceVersion(old, new) {
					c.applied.forget(appliedKey(gvr, name))
				}
				c.queue.Add(reconcileKey)
			},
			DeleteFunc: func(any) { c.queue.Add(reconcileKey) },
		})
		c.informer[gvr] = inf
	}
	watch(corednsGVR, corednsoperator.CoreDNSResource)
	for _, m := range managedObjects {
		watch(m.gvr, m.name)
	}
	return c
}

// Run starts the informers, waits for their caches and reconciles until ctx ends.
func (c *Controller) Run(ctx context.Context) error {
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
		return fmt.Errorf("waiting for the caches of kube-system/coredns and its objects: %w", ctx.Err())
	}
	logger.Info("Caches synced, reconciling")
	if c.onSynced != nil {
		c.onSynced()
	}
	c.queue.Add(reconcileKey)
	go func() {
		<-ctx.Done()
		c.queue.ShutDown()
	}()
	for c.processNext(ctx) {
	}
	return nil
}

func (c *Controller) processNext(ctx context.Context) bool {
	key, quit := c.queue.Get()
	if quit {
		return false
	}
	defer c.queue.Done(key)
	if err := c.Reconcile(ctx); err != nil {
		klog.FromContext(ctx).Error(err, "Reconcile failed, retrying", "coredns", key)
		c.queue.AddRateLimited(key)
		return true
	}
	c.queue.Forget(key)
	return true
}

func (c *Controller) cached(gvr schema.GroupVersionResource, name string) (*unstructured.Unstructured, error) {
	obj, exists, err := c.informer[gvr].GetStore().GetByKey(corednsoperator.WatchNamespace + "/" + name)
	if err != nil || !exists {
		return nil, err
	}
	u, ok := obj.(*unstructured.Unstructured)
	if !ok {
		return nil, fmt.Errorf("cache of %s holds a %T", gvr.Resource, obj)
	}
	return u, nil
}

// Reconcile applies the rendering of the CoreDNS object's spec and writes its status. Every
// problem is reported on the status; an error it returns is retried with the queue's exponential
// backoff (up to about 17 minutes between tries), since a refusal may end without a new spec (kops
// re-applying the rights or the policy, an admin deleting the Service).
func (c *Controller) Reconcile(ctx context.Context) error {
	logger := klog.FromContext(ctx)
	u, err := c.cached(corednsGVR, corednsoperator.CoreDNSResource)
	if err != nil {
		return err
	}
	if u == nil {
		logger.V(2).Info("No CoreDNS object; nothing to do")
		return nil
	}
	var obj corednsoperator.CoreDNS
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(u.Object, &obj); err != nil {
		err = fmt.Errorf("reading CoreDNS %s: %w", reconcileKey, err)
		c.recordFailure(u, ReasonInvalidSpec, err)
		return c.writeStatus(ctx, u, nil, []error{err})
	}
	// kops checks the Corefile it writes into the object; anyone else who may write the object
	// could hand CoreDNS one that reaches its token, so it is checked again before it is applied.
	if err := checkCorefile(obj.Spec.Corefile); err != nil {
		c.recordFailure(u, ReasonInvalidSpec, err)
		return c.writeStatus(ctx, u, nil, []error{err})
	}
	errs := c.apply(ctx, u, obj.Spec)
	d, err := c.deployment()
	if err != nil {
		errs = append(errs, err)
	}
	if err := c.writeStatus(ctx, u, d, errs); err != nil {
		return err
	}
	if len(errs) > 0 {
		return fmt.Errorf("reconciling CoreDNS %s: %v", reconcileKey, errs)
	}
	return nil
}

// checkClusterIP refuses to apply a Service whose cluster IP would change: Kubernetes cannot
// change it in place, and the operator may not delete the Service (another could take the IP).
func (c *Controller) checkClusterIP(dnsIP string) error {
	svc, err := c.cached(servicesGVR, corednsoperator.CoreDNSService)
	if err != nil || svc == nil {
		return err
	}
	current, _, _ := unstructured.NestedString(svc.Object, "spec", "clusterIP")
	want, errWant := netip.ParseAddr(dnsIP)
	have, errHave := netip.ParseAddr(current)
	if errWant == nil && errHave == nil && want == have {
		return nil
	}
	return fmt.Errorf("spec.dnsIP %q differs from the clusterIP %q of Service %s/%s, which cannot change in place; the operator never deletes the Service: delete it yourself to move DNS to the new address", dnsIP, current, corednsoperator.WatchNamespace, corednsoperator.CoreDNSService)
}

func (c *Controller) deployment() (*appsv1.Deployment, error) {
	u, err := c.cached(deploymentsGVR, corednsoperator.CoreDNSDeployment)
	if err != nil || u == nil {
		return nil, err
	}
	d := &appsv1.Deployment{}
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(u.Object, d); err != nil {
		return nil, fmt.Errorf("reading Deployment %s/%s: %w", corednsoperator.WatchNamespace, corednsoperator.CoreDNSDeployment, err)
	}
	return d, nil
}

// sameResourceVersion says whether an update is a resync: the informer handing the same object
// again.
func sameResourceVersion(old, new any) bool {
	o, ok1 := old.(*unstructured.Unstructured)
	n, ok2 := new.(*unstructured.Unstructured)
	return ok1 && ok2 && o.GetResourceVersion() == n.GetResourceVersion()
}

// sameGeneration says whether an update left the object's generation (its spec) as it was.
func sameGeneration(old, new any) bool {
	o, ok1 := old.(*unstructured.Unstructured)
	n, ok2 := new.(*unstructured.Unstructured)
	return ok1 && ok2 && o.GetGeneration() == n.GetGeneration()
}

// checkCorefile refuses a Corefile that could reach a credential (pkg/corefile, the same check
// kops's validation makes), naming every problem.
func checkCorefile(text string) error {
	problems, err := corefile.Check(text)
	if err != nil {
		return fmt.Errorf("spec.corefile: %w", err)
	}
	if len(problems) == 0 {
		return nil
	}
	msgs := make([]string, len(problems))
	for i, p := range problems {
		msgs[i] = p.String()
	}
	return fmt.Errorf("spec.corefile is refused, nothing was applied: %s", strings.Join(msgs, "; "))
}
