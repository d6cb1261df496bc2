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

package kopsenv

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/dynamic"

	"k8s.io/kops/pkg/model/addons"
	"k8s.io/kops/pkg/operator"
	"k8s.io/kops/tests/e2e/framework"
)

// CollectOrphans plays the garbage collector, which the test server does not run, for what
// channels retires: every operator's custom resource deleted orphaning its dependents (finalizer
// "orphan") loses its place in the ownerReferences of the objects the operator manages, then
// the finalizer, and is gone, as on a cluster with a kube-controller-manager. Until then it stays,
// terminating, and channels waits for it before applying it again. It returns the objects it
// released ("corednses kube-system/coredns"): each was deleted orphaning its dependents.
func CollectOrphans(t testing.TB, env *framework.Env) []string {
	t.Helper()
	ctx := framework.Context(t)
	var released []string
	dyn, err := dynamic.NewForConfig(env.Config)
	require.NoError(t, err)
	for _, o := range addons.Operators() {
		d := o.Descriptor
		resources := dyn.Resource(schema.GroupVersionResource{Group: d.CRD.Group, Version: d.CRD.Version, Resource: d.CRD.Resource}).Namespace(d.WatchNamespace)
		list, err := resources.List(ctx, metav1.ListOptions{})
		if apierrors.IsNotFound(err) {
			continue // its CRD was never applied
		}
		require.NoError(t, err)
		for _, owner := range list.Items {
			if owner.GetDeletionTimestamp() == nil || !slices.Contains(owner.GetFinalizers(), metav1.FinalizerOrphanDependents) {
				continue
			}
			for _, m := range d.Managed {
				resource, ok := operator.ManagedResource(m.Kind)
				require.True(t, ok, m.Kind)
				dependents := dyn.Resource(resource).Namespace(d.WatchNamespace)
				dependent, err := dependents.Get(ctx, m.Name, metav1.GetOptions{})
				if apierrors.IsNotFound(err) {
					continue
				}
				require.NoError(t, err)
				refs := slices.DeleteFunc(dependent.GetOwnerReferences(), func(r metav1.OwnerReference) bool { return r.UID == owner.GetUID() })
				if len(refs) == len(dependent.GetOwnerReferences()) {
					continue
				}
				dependent.SetOwnerReferences(refs)
				_, err = dependents.Update(ctx, dependent, metav1.UpdateOptions{})
				require.NoError(t, err)
			}
			finalizers := slices.DeleteFunc(owner.GetFinalizers(), func(f string) bool { return f == metav1.FinalizerOrphanDependents })
			patch, err := json.Marshal(map[string]interface{}{"metadata": map[string]interface{}{"finalizers": finalizers, "resourceVersion": owner.GetResourceVersion()}})
			require.NoError(t, err)
			_, err = resources.Patch(ctx, owner.GetName(), types.MergePatchType, patch, metav1.PatchOptions{})
			require.NoError(t, err)
			released = append(released, d.CRD.Resource+" "+owner.GetNamespace()+"/"+owner.GetName())
		}
	}
	return released
}
