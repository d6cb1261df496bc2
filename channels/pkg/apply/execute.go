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

package apply

import (
	"context"
	"fmt"
	"sync"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"

	"k8s.io/kops/channels/pkg/api"
)

// execute writes the plan. An addon whose dependency failed is skipped; once the API server stops
// answering, later addons are not tried and nothing is retired.
func (a *Applier) execute(ctx context.Context, p *plan) []Result {
	var results []Result
	for _, ap := range p.takeOvers {
		results = append(results, a.executeTakeOver(ctx, p, ap))
	}
	failed := map[string]bool{}
	var unreachable error
	for _, ap := range p.addons {
		var r Result
		if unreachable != nil {
			r = notTried(ap.addon)
		} else if skipped := skippedFor(ap.addon, p.provider, failed); skipped != nil {
			r = *skipped
		} else if ap.action == actionApply {
			r = a.executeApply(ctx, p, ap)
		} else if ap.action == actionPKI {
			r = a.executePKI(ctx, ap)
		} else {
			r = ap.result
		}
		if r.Outcome == Failed || r.Outcome == Skipped {
			failed[ap.addon.Spec.Name] = true
		}
		if r.Err != nil && noAnswer(ctx, r.Err) {
			unreachable = r.Err
		}
		results = append(results, r)
	}
	if unreachable == nil {
		results = append(results, a.executeRetire(ctx, p)...)
	}
	return results
}

func (a *Applier) executeApply(ctx context.Context, p *plan, ap *addonPlan) Result {
	r := ap.result
	fail := func(err error) Result {
		r.Outcome, r.Reason, r.Err = Failed, err.Error(), err
		return r
	}
	// The Issuer first, so that the addon's Certificates are issued as soon as they are applied.
	if err := a.installPKI(ctx, ap.addon.Spec.Name, ap.pki); err != nil {
		return fail(err)
	}
	if err := a.applyObjects(ctx, ap.addon, p.provider); err != nil {
		if noAnswer(ctx, err) {
			err = fmt.Errorf("%w (the API server did not answer in time)", err)
		}
		return fail(err)
	}
	pruned, err := a.prune(ctx, ap.addon, ap.prev, customIn(p.provider))
	if err != nil {
		return fail(err)
	}
	written, err := a.newRecord(p.channel, ap.addon, without(ap.refs, pruned))
	if err == nil {
		err = a.writeRecord(ctx, ap.recordNamespace, ap.addon.Spec.Name, written)
	}
	if err != nil {
		return fail(err)
	}
	// Retirement, later in this run, may hand objects over to this record.
	p.records[ap.addon.Spec.Name] = record{namespace: ap.recordNamespace, version: written}
	r.Outcome = Applied
	return r
}

// executePKI creates the missing PKI of an addon whose objects are as recorded, as kops's channels
// does whenever it finds an addon's CA or Issuer missing.
func (a *Applier) executePKI(ctx context.Context, ap *addonPlan) Result {
	r := ap.result
	if err := a.installPKI(ctx, ap.addon.Spec.Name, ap.pki); err != nil {
		r.Outcome, r.Reason, r.Err = Failed, err.Error(), err
		return r
	}
	r.Outcome = Applied
	return r
}

func (a *Applier) executeTakeOver(ctx context.Context, p *plan, ap *addonPlan) Result {
	r := ap.result
	if ap.action != actionTakeOver {
		return r
	}
	fail := func(err error) Result {
		r.Outcome, r.Reason, r.Err = Failed, "taking over: "+err.Error(), err
		return r
	}
	if err := a.applyObjects(ctx, ap.addon, p.provider); err != nil {
		return fail(err)
	}
	written, err := a.newRecord(p.channel, ap.addon, ap.refs)
	if err == nil {
		err = a.writeRecord(ctx, ap.recordNamespace, ap.addon.Spec.Name, written)
	}
	if err != nil {
		return fail(err)
	}
	p.records[ap.addon.Spec.Name] = record{namespace: ap.recordNamespace, version: written}
	r.Outcome = TakenOver
	return r
}

// applyObjects applies the addon's objects phase by phase, waiting for each CRD to be established
// and each probed policy binding to be enforced before the rights and workloads it confines. The
// objects of a phase do not depend on each other and are sent together.
func (a *Applier) applyObjects(ctx context.Context, addon *Addon, provider map[schema.GroupKind]string) error {
	objs := append([]*unstructured.Unstructured(nil), addon.Objects...)
	custom := customIn(provider)
	sortObjects(objs, custom)
	phase := phaseOf(custom)
	for start := 0; start < len(objs); {
		end := start + 1
		for end < len(objs) && phase(objs[end]) == phase(objs[start]) {
			end++
		}
		if err := a.applyTogether(ctx, objs[start:end]); err != nil {
			return err
		}
		if err := a.awaitReady(ctx, objs[start:end]); err != nil {
			return err
		}
		start = end
	}
	return nil
}

// awaitReady returns the first error in the manifest's order.
func (a *Applier) awaitReady(ctx context.Context, objs []*unstructured.Unstructured) error {
	errs := make([]error, len(objs))
	var wg sync.WaitGroup
	for i, obj := range objs {
		switch {
		case obj.GroupVersionKind().GroupKind() == crdKind:
			wg.Go(func() { errs[i] = a.waitEstablished(ctx, obj.GetName()) })
		case obj.GetAnnotations()[api.EnforcementProbeAnnotation] != "":
			wg.Go(func() { errs[i] = a.proveEnforced(ctx, obj) })
		}
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

const maxInFlight = 8

// applyTogether applies objects concurrently; the error is the first in the manifest's order.
func (a *Applier) applyTogether(ctx context.Context, objs []*unstructured.Unstructured) error {
	clients := make([]dynamic.ResourceInterface, len(objs))
	for i, obj := range objs {
		client, err := a.resourceFor(ctx, obj) // discovery is not safe to race; it is cached after the first
		if err != nil {
			return fmt.Errorf("%s %s: %w", obj.GetKind(), objectName(obj), err)
		}
		clients[i] = client
	}
	errs := make([]error, len(objs))
	slots := make(chan struct{}, maxInFlight)
	var wg sync.WaitGroup
	for i, obj := range objs {
		wg.Add(1)
		slots <- struct{}{}
		go func() {
			defer func() { <-slots; wg.Done() }()
			errs[i] = a.applyObject(ctx, clients[i], obj)
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			return fmt.Errorf("%s %s: %w", objs[i].GetKind(), objectName(objs[i]), err)
		}
	}
	return nil
}

// applyObject applies obj. An object still terminating (an operator's custom resource retired a
// moment ago) takes the apply and then vanishes with it, leaving the exact policy without params
// so it refuses every write it confines. So an apply that lands on a terminating object waits for
// it to go and applies obj afresh, within WaitTimeout.
func (a *Applier) applyObject(ctx context.Context, client dynamic.ResourceInterface, obj *unstructured.Unstructured) error {
	opts := metav1.ApplyOptions{FieldManager: a.opts.FieldManager, Force: true}
	deadline := time.Now().Add(a.opts.WaitTimeout)
	for {
		got, err := client.Apply(ctx, obj.GetName(), obj, opts)
		if err != nil || got.GetDeletionTimestamp() == nil {
			return err
		}
		if err := a.waitGone(ctx, client, got, deadline); err != nil {
			return err
		}
	}
}

// waitGone waits until was is deleted or replaced, or deadline passes.
func (a *Applier) waitGone(ctx context.Context, client dynamic.ResourceInterface, was *unstructured.Unstructured, deadline time.Time) error {
	for delay := 20 * time.Millisecond; ; delay = min(2*delay, 500*time.Millisecond) {
		if err := sleep(ctx, delay); err != nil {
			return err
		}
		cur, err := client.Get(ctx, was.GetName(), metav1.GetOptions{})
		switch {
		case apierrors.IsNotFound(err):
			return nil
		case err != nil:
			return fmt.Errorf("waiting for its deletion to end: %w", err)
		case cur.GetUID() != was.GetUID():
			return nil
		case time.Now().After(deadline):
			return fmt.Errorf("it is being deleted (finalizers %v) and was not gone within %s; retried on the next run", cur.GetFinalizers(), a.opts.WaitTimeout)
		}
	}
}
