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
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/tools/record"
	"k8s.io/klog/v2"
)

var leasesGVR = schema.GroupVersionResource{Group: "coordination.k8s.io", Version: "v1", Resource: "leases"}

// leaseElector is client-go's leaderelection over the dynamic client (see the package comment),
// with the same fields and rule: a lease is taken over once its record has not changed for a lease
// duration as this replica observes it, so clocks need not agree.
type leaseElector struct {
	leases                                  dynamic.ResourceInterface
	name, identity                          string
	leaseDuration, renewDeadline, retryTime time.Duration
	events                                  record.EventRecorder // nil: none

	// observed is the holder and renew time last seen, at observedAt; only run's goroutine touches them.
	observed   string
	observedAt time.Time
}

// run runs lead while holding the lease. It returns after lead has returned, when ctx ends (after
// releasing the lease) or when renewal fails for renewDeadline (lost).
func (e *leaseElector) run(ctx context.Context, lead func(context.Context) error) (leadErr error, lost bool) {
	logger := klog.FromContext(ctx)
	for !e.tryAcquireOrRenew(ctx) {
		select {
		case <-ctx.Done():
			return nil, false
		case <-time.After(wait.Jitter(e.retryTime, 1.2)):
		}
	}
	leading, stop := context.WithCancel(ctx)
	defer stop()
	done := make(chan error, 1)
	go func() { done <- lead(leading) }()
	for {
		select {
		case <-ctx.Done():
			stop()
			leadErr = <-done
			e.release(context.WithoutCancel(ctx))
			return leadErr, false
		case <-time.After(e.retryTime):
		}
		if !e.renew(ctx) && ctx.Err() == nil {
			logger.Info("Could not renew the lease in time", "lease", e.name, "renewDeadline", e.renewDeadline)
			stop()
			return <-done, true
		}
	}
}

func (e *leaseElector) renew(ctx context.Context) bool {
	deadline := time.Now().Add(e.renewDeadline)
	for {
		attempt, cancel := context.WithDeadline(ctx, deadline)
		ok := e.tryAcquireOrRenew(attempt)
		cancel()
		if ok {
			return true
		}
		if time.Now().Add(e.retryTime).After(deadline) || ctx.Err() != nil {
			return false
		}
		time.Sleep(e.retryTime)
	}
}

// tryAcquireOrRenew reports whether this replica holds the lease now. Updates carry the
// resourceVersion read, so two replicas cannot both win.
func (e *leaseElector) tryAcquireOrRenew(ctx context.Context) bool {
	logger := klog.FromContext(ctx)
	now := time.Now()
	stamp := now.UTC().Format(metav1.RFC3339Micro)
	lease, err := e.leases.Get(ctx, e.name, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		lease = &unstructured.Unstructured{Object: map[string]any{
			"apiVersion": "coordination.k8s.io/v1", "kind": "Lease",
			"metadata": map[string]any{"name": e.name},
			"spec": map[string]any{
				"holderIdentity": e.identity, "leaseDurationSeconds": int64(e.leaseDuration / time.Second),
				"acquireTime": stamp, "renewTime": stamp, "leaseTransitions": int64(0),
			},
		}}
		created, err := e.leases.Create(ctx, lease, metav1.CreateOptions{})
		if err != nil {
			logger.V(2).Info("Could not create the lease", "lease", e.name, "err", err)
			return false
		}
		e.acquired(created, now, stamp)
		return true
	}
	if err != nil {
		logger.V(2).Info("Could not read the lease", "lease", e.name, "err", err)
		return false
	}
	holder, _, _ := unstructured.NestedString(lease.Object, "spec", "holderIdentity")
	renewed, _, _ := unstructured.NestedString(lease.Object, "spec", "renewTime")
	if record := holder + "|" + renewed; record != e.observed {
		e.observed, e.observedAt = record, now
	}
	if holder != "" && holder != e.identity && now.Before(e.observedAt.Add(e.leaseDuration)) {
		return false
	}
	spec := map[string]any{}
	if s, ok := lease.Object["spec"].(map[string]any); ok {
		spec = s
	}
	if holder != e.identity {
		transitions, _, _ := unstructured.NestedInt64(lease.Object, "spec", "leaseTransitions")
		spec["leaseTransitions"] = transitions + 1
		spec["acquireTime"] = stamp
	}
	spec["holderIdentity"] = e.identity
	spec["leaseDurationSeconds"] = int64(e.leaseDuration / time.Second)
	spec["renewTime"] = stamp
	lease.Object["spec"] = spec
	updated, err := e.leases.Update(ctx, lease, metav1.UpdateOptions{})
	if err != nil {
		logger.V(2).Info("Could not take or renew the lease", "lease", e.name, "err", err)
		return false
	}
	if holder != e.identity {
		e.acquired(updated, now, stamp)
	}
	e.observed, e.observedAt = e.identity+"|"+stamp, now
	return true
}

func (e *leaseElector) acquired(lease *unstructured.Unstructured, now time.Time, stamp string) {
	e.observed, e.observedAt = e.identity+"|"+stamp, now
	if e.events != nil {
		e.events.Eventf(lease, corev1.EventTypeNormal, "LeaderElection", "%s became leader", e.identity)
	}
}

// release gives the lease up, if held, so that another replica takes over at once.
func (e *leaseElector) release(ctx context.Context) {
	ctx, cancel := context.WithTimeout(ctx, e.renewDeadline)
	defer cancel()
	lease, err := e.leases.Get(ctx, e.name, metav1.GetOptions{})
	if err != nil {
		klog.FromContext(ctx).Error(err, "Could not release the lease", "lease", e.name)
		return
	}
	if holder, _, _ := unstructured.NestedString(lease.Object, "spec", "holderIdentity"); holder != e.identity {
		return
	}
	stamp := time.Now().UTC().Format(metav1.RFC3339Micro)
	for field, value := range map[string]any{"holderIdentity": "", "leaseDurationSeconds": int64(1), "renewTime": stamp, "acquireTime": stamp} {
		if err := unstructured.SetNestedField(lease.Object, value, "spec", field); err != nil {
			klog.FromContext(ctx).Error(err, "Could not release the lease", "lease", e.name)
			return
		}
	}
	if _, err := e.leases.Update(ctx, lease, metav1.UpdateOptions{}); err != nil {
		klog.FromContext(ctx).Error(fmt.Errorf("releasing lease %s: %w", e.name, err), "Could not release the lease")
	}
}
