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
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	coordinationv1 "k8s.io/api/coordination/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/dynamic"
	dynamicfake "k8s.io/client-go/dynamic/fake"
	coordinationv1client "k8s.io/client-go/kubernetes/typed/coordination/v1"
	"k8s.io/client-go/tools/leaderelection"
	"k8s.io/client-go/tools/leaderelection/resourcelock"
)

// dynamicLeases serves client-go's typed LeaseLock from the same store as our elector. It
// implements only get, create and update: any other call client-go made would hit the nil
// embedded interface and panic, so the test also shows that client-go's lease lock needs exactly
// the operator's lease rights (get, create, update).
type dynamicLeases struct {
	coordinationv1client.LeaseInterface
	leases dynamic.ResourceInterface
}

func (d dynamicLeases) Leases(string) coordinationv1client.LeaseInterface { return d }

func (d dynamicLeases) Get(ctx context.Context, name string, o metav1.GetOptions) (*coordinationv1.Lease, error) {
	u, err := d.leases.Get(ctx, name, o)
	if err != nil {
		return nil, err
	}
	return leaseFromUnstructured(u)
}

func (d dynamicLeases) Create(ctx context.Context, l *coordinationv1.Lease, o metav1.CreateOptions) (*coordinationv1.Lease, error) {
	u, err := leaseToUnstructured(l)
	if err != nil {
		return nil, err
	}
	if u, err = d.leases.Create(ctx, u, o); err != nil {
		return nil, err
	}
	return leaseFromUnstructured(u)
}

func (d dynamicLeases) Update(ctx context.Context, l *coordinationv1.Lease, o metav1.UpdateOptions) (*coordinationv1.Lease, error) {
	u, err := leaseToUnstructured(l)
	if err != nil {
		return nil, err
	}
	if u, err = d.leases.Update(ctx, u, o); err != nil {
		return nil, err
	}
	return leaseFromUnstructured(u)
}

func leaseToUnstructured(l *coordinationv1.Lease) (*unstructured.Unstructured, error) {
	obj, err := runtime.DefaultUnstructuredConverter.ToUnstructured(l)
	u := &unstructured.Unstructured{Object: obj}
	u.SetAPIVersion("coordination.k8s.io/v1")
	u.SetKind("Lease")
	return u, err
}

func leaseFromUnstructured(u *unstructured.Unstructured) (*coordinationv1.Lease, error) {
	l := &coordinationv1.Lease{}
	return l, runtime.DefaultUnstructuredConverter.FromUnstructured(u.Object, l)
}

// TestLeaseElectorSideBySideWithClientGo: our elector and client-go's leaderelection with a
// LeaseLock (ReleaseOnCancel, no event recorder) contend for one Lease. Each respects the other's
// fresh record, and a lease one releases, the other takes at once: ours writes and reads the
// record as client-go does. (Ours is kept because client-go's package links the typed clientset
// and informers of every API group; see docs/operator-rights.md.)
func TestLeaseElectorSideBySideWithClientGo(t *testing.T) {
	ctx := context.Background()
	client := dynamicfake.NewSimpleDynamicClient(runtime.NewScheme())
	leases := client.Resource(leasesGVR).Namespace("ns")
	ours := testElector("ours", client)

	require.True(t, ours.tryAcquireOrRenew(ctx), "ours creates the lease")

	var leading, stopped atomic.Bool
	theirsCtx, stopTheirs := context.WithCancel(ctx)
	defer stopTheirs()
	elector, err := leaderelection.NewLeaderElector(leaderelection.LeaderElectionConfig{
		Lock: &resourcelock.LeaseLock{
			LeaseMeta:  metav1.ObjectMeta{Namespace: "ns", Name: "lease"},
			Client:     dynamicLeases{leases: leases},
			LockConfig: resourcelock.ResourceLockConfig{Identity: "client-go"},
		},
		LeaseDuration:   time.Hour, // ours is never taken over for staleness here
		RenewDeadline:   time.Second,
		RetryPeriod:     10 * time.Millisecond,
		ReleaseOnCancel: true,
		Callbacks: leaderelection.LeaderCallbacks{
			OnStartedLeading: func(context.Context) { leading.Store(true) },
			OnStoppedLeading: func() { stopped.Store(true) },
		},
	})
	require.NoError(t, err)
	done := make(chan struct{})
	go func() { defer close(done); elector.Run(theirsCtx) }()

	// client-go polls every 10 ms; ours renews meanwhile. Its lease is fresh: client-go waits.
	for range 20 {
		require.True(t, ours.tryAcquireOrRenew(ctx), "ours renews its own lease")
		time.Sleep(10 * time.Millisecond)
	}
	assert.False(t, leading.Load(), "client-go must not lead while ours holds a fresh lease")

	ours.release(ctx)
	require.Eventually(t, leading.Load, 10*time.Second, 10*time.Millisecond, "client-go takes the lease ours released")
	assert.Equal(t, "client-go", leaseSpec(t, client)["holderIdentity"])
	assert.False(t, ours.tryAcquireOrRenew(ctx), "ours waits while client-go holds a fresh lease")

	stopTheirs()
	<-done
	assert.True(t, stopped.Load())
	assert.Equal(t, "", leaseSpec(t, client)["holderIdentity"], "client-go released the lease on cancel")
	require.True(t, ours.tryAcquireOrRenew(ctx), "ours takes the lease client-go released, at once")
	spec := leaseSpec(t, client)
	assert.Equal(t, "ours", spec["holderIdentity"])
	assert.Equal(t, int64(2), spec["leaseTransitions"], "ours -> client-go -> ours")
}
