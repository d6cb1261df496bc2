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
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/dynamic"
)

// applyObject applies obj. An object still being deleted (deletionTimestamp set, held by a
// finalizer: the garbage collector's orphan finalizer on a custom resource channels retired a
// moment ago, when an operator is switched off and on again) takes the apply and then vanishes,
// and what was applied with it: an operator's instructions gone, its exact admission policy then
// has no params and refuses every write it confines. So an apply that lands on a terminating
// object waits until that object is gone and applies obj afresh, all within WaitTimeout; the
// normal path costs nothing more than the apply. The apply that finds the object terminating has
// written to it already: harmless, since it is going, and the one request a normal apply makes.
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

// waitGone waits until the terminating object was has been deleted (or replaced by another of
// its name), until deadline.
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
