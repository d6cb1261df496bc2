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

package channels

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"k8s.io/kops/channels/pkg/apply"
	"k8s.io/kops/tests/e2e/framework"
	"k8s.io/kops/tests/e2e/kopsenv"
	"k8s.io/kops/util/pkg/vfs"
)

// holdFinalizer keeps a deleted object terminating, as the garbage collector's orphan finalizer
// keeps a retired custom resource until it has orphaned its dependents.
const holdFinalizer = "e2e.kops.k8s.io/hold"

// terminatingConfigMap creates ConfigMap name held by holdFinalizer and deletes it: it stays,
// terminating, until the finalizer is removed.
func terminatingConfigMap(t *testing.T, ns, name string) {
	ctx := framework.Context(t)
	cms := env.Clientset.CoreV1().ConfigMaps(ns)
	_, err := cms.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns, Finalizers: []string{holdFinalizer}},
		Data: map[string]string{"old": "yes"}}, metav1.CreateOptions{})
	require.NoError(t, err)
	require.NoError(t, cms.Delete(ctx, name, metav1.DeleteOptions{}))
	held, err := cms.Get(ctx, name, metav1.GetOptions{})
	require.NoError(t, err)
	require.NotNil(t, held.DeletionTimestamp, "the object is terminating")
}

// releaseOnceApplied waits until channels' field manager appears on the terminating ConfigMap,
// then releases it.
func releaseOnceApplied(ctx context.Context, ns, name string) error {
	for {
		cm, err := env.Clientset.CoreV1().ConfigMaps(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		for _, m := range cm.ManagedFields {
			if m.Manager == "kops-channels" {
				return release(ctx, ns, name)
			}
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(20 * time.Millisecond):
		}
	}
}

func release(ctx context.Context, ns, name string) error {
	patch, err := json.Marshal(map[string]interface{}{"metadata": map[string]interface{}{"finalizers": nil}})
	if err != nil {
		return err
	}
	_, err = env.Clientset.CoreV1().ConfigMaps(ns).Patch(ctx, name, types.MergePatchType, patch, metav1.PatchOptions{})
	return err
}

// An object of an addon that is still being deleted when channels applies it (an operator switched
// off and on again before the garbage collector let go of its custom resource) would take the
// apply and vanish with it. channels waits until it is gone and creates it afresh; when it never
// goes, the addon fails, naming the finalizer, and is not recorded.
func TestApplyOverATerminatingObject(t *testing.T) {
	const ns = "e2e-terminating"
	createNamespace(t, ns)
	ctx := framework.Context(t)
	cases := []struct {
		name    string
		release bool
	}{
		{"released while channels waits", true},
		{"never released", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			name := map[bool]string{true: "released", false: "held"}[tc.release]
			terminatingConfigMap(t, ns, name)
			t.Cleanup(func() { _ = release(context.Background(), ns, name) })
			mem := &vfs.MemFS{}
			location := testChannel(t, mem, name, ns, [][2]string{{name, configMap(ns, name, name)}}, nil)

			// The finalizer is released once channels' apply has landed on the terminating object
			// (it is among the object's field managers), so that channels is then waiting for it.
			done := make(chan error, 1)
			if tc.release {
				go func() { done <- releaseOnceApplied(ctx, ns, name) }()
			}
			run := kopsenv.ApplyWith(t, env, location, mem, apply.Options{Yes: true, WaitTimeout: 3 * time.Second})
			got, getErr := env.Clientset.CoreV1().ConfigMaps(ns).Get(ctx, name, metav1.GetOptions{})
			if !tc.release {
				require.Error(t, run.Err)
				assert.Contains(t, run.Output, "is being deleted (finalizers ["+holdFinalizer+"]) and was not gone within 3s")
				assert.Equal(t, map[string]apply.Outcome{name: apply.Failed}, run.Outcomes())
				assert.Empty(t, record(t, ns, name), "not recorded")
				return
			}
			require.NoError(t, <-done)
			require.NoError(t, run.Err, run.Output)
			assert.Equal(t, map[string]apply.Outcome{name: apply.Applied}, run.Outcomes())
			require.NoError(t, getErr, "the object outlives the deletion that was under way")
			assert.Nil(t, got.DeletionTimestamp)
			assert.Equal(t, map[string]string{"a": "b"}, got.Data, "created afresh from the manifest")
		})
	}
}
