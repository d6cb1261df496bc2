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
	"maps"
	"slices"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"

	"k8s.io/kops/channels/pkg/api"
)

// prune deletes, for an addon with a prune spec, the objects of the listed kinds that its previous
// record's inventory lists, that left its manifest, still carry its label and that this tool's
// field manager applied. Nothing outside the inventory is even looked at: prune is confined to the
// kinds and namespaces the addon applied to, so an object someone else made that carries the label
// is safe. A previous record that is not ours (kops's channels, an older channels) prunes nothing.
// Namespaces and CRDs are never pruned: deleting them would take everything in them along. What is
// found is deleted in the reverse of the apply phases (custom says which kinds are custom
// resources, as for applying), whatever the order of the prune spec's kinds: a policy is never
// deleted before the rights it confines. It returns the keys of the inventory's entries that are
// gone (deleted, or no longer the addon's).
func (a *Applier) prune(ctx context.Context, addon *Addon, prev *api.ChannelVersion, custom func(schema.GroupKind) bool) (map[string]bool, error) {
	gone := map[string]bool{}
	if addon.Spec.Prune == nil || !prev.Ours(a.opts.FieldManager) {
		return gone, nil
	}
	old, err := prev.Objects()
	if err != nil {
		return nil, fmt.Errorf("pruning: reading the inventory of its record: %w", err)
	}
	wanted := map[string]bool{}
	for _, o := range addon.Objects {
		wanted[refOf(o).Key()] = true
	}
	var doomed []*unstructured.Unstructured
	for _, k := range addon.Spec.Prune.Kinds {
		gk := schema.GroupKind{Group: k.Group, Kind: k.Kind}
		if gk == namespaceKind || gk == crdKind {
			continue
		}
		selector, err := labels.Parse(k.LabelSelector)
		if err != nil {
			return nil, fmt.Errorf("pruning %s: label selector %q: %w", gk, k.LabelSelector, err)
		}
		candidates := map[string][]api.ObjectRef{} // by namespace
		for _, r := range old {
			if r.GroupKind() == gk && !wanted[r.Key()] && !gone[r.Key()] && inNamespaces(r.Namespace, k.Namespaces) {
				candidates[r.Namespace] = append(candidates[r.Namespace], r)
			}
		}
		for _, ns := range slices.Sorted(maps.Keys(candidates)) {
			objs, err := a.listInventoried(ctx, gk, ns, candidates[ns], addon.Spec.Name)
			if err != nil {
				return nil, fmt.Errorf("pruning %s: %w", gk, err)
			}
			for _, r := range candidates[ns] {
				o, found := objs[r.Key()]
				switch {
				case !found:
					gone[r.Key()] = true // deleted by someone, or now another addon's
				case !selector.Matches(labels.Set(o.GetLabels())) || !appliedBy(o, a.opts.FieldManager):
					// not to be pruned, or not made by us: left alone and still listed
				default:
					doomed = append(doomed, o)
					gone[r.Key()] = true
				}
			}
		}
	}
	sortForDeletion(doomed, func(o *unstructured.Unstructured) *unstructured.Unstructured { return o }, custom)
	for _, o := range doomed {
		if err := a.delete(ctx, *o, metav1.DeletePropagationBackground); err != nil {
			return nil, fmt.Errorf("pruning %s %s: %w", o.GetKind(), objectName(o), err)
		}
	}
	return gone, nil
}

// inNamespaces tells whether namespace is one of the prune spec's (any, when it names none).
// Cluster-scoped objects (namespace "") are not limited by it.
func inNamespaces(namespace string, namespaces []string) bool {
	if len(namespaces) == 0 || namespace == "" {
		return true
	}
	for _, n := range namespaces {
		if n == namespace {
			return true
		}
	}
	return false
}

// listInventoried finds those of refs (all of kind gk in namespace, "" when cluster-scoped) that
// exist and still carry the addon's label, by their keys. One list request per kind and namespace.
// A kind the server no longer serves has no objects left.
func (a *Applier) listInventoried(ctx context.Context, gk schema.GroupKind, namespace string, refs []api.ObjectRef, addonName string) (map[string]*unstructured.Unstructured, error) {
	mapping, err := a.resources.RESTMapping(ctx, gk)
	if meta.IsNoMatchError(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var client dynamic.ResourceInterface = a.dynamic.Resource(mapping.Resource)
	if mapping.Scope.Name() == meta.RESTScopeNameNamespace {
		if namespace == "" {
			return nil, nil // the inventory cannot list a namespaced object without a namespace
		}
		client = a.dynamic.Resource(mapping.Resource).Namespace(namespace)
	}
	list, err := client.List(ctx, metav1.ListOptions{LabelSelector: api.LabelAddonName + "=" + addonName})
	if err != nil {
		return nil, err
	}
	want := map[string]bool{}
	for _, r := range refs {
		want[r.Key()] = true
	}
	out := map[string]*unstructured.Unstructured{}
	for i := range list.Items {
		o := &list.Items[i]
		key := api.ObjectRef{Group: gk.Group, Kind: gk.Kind, Namespace: namespace, Name: o.GetName()}.Key()
		if want[key] {
			out[key] = o
		}
	}
	return out, nil
}

func (a *Applier) delete(ctx context.Context, o unstructured.Unstructured, propagation metav1.DeletionPropagation) error {
	client, err := a.clientOf(ctx, o)
	if err != nil {
		return err
	}
	// Only the object that was checked (its label, its field manager) is deleted: one of the same
	// name made since, by anyone, is not.
	uid := o.GetUID()
	err = client.Delete(ctx, o.GetName(), metav1.DeleteOptions{PropagationPolicy: &propagation, Preconditions: &metav1.Preconditions{UID: &uid}})
	switch {
	case apierrors.IsNotFound(err):
		return nil
	case apierrors.IsConflict(err):
		return fmt.Errorf("it was replaced since it was checked, and is left alone; retried on the next run: %w", err)
	}
	return err
}

// clientOf addresses an object listed from the server (its namespace, if any, is set).
func (a *Applier) clientOf(ctx context.Context, o unstructured.Unstructured) (dynamic.ResourceInterface, error) {
	gvk := o.GroupVersionKind()
	mapping, err := a.resources.RESTMapping(ctx, gvk.GroupKind(), gvk.Version)
	if err != nil {
		return nil, err
	}
	return a.dynamic.Resource(mapping.Resource).Namespace(o.GetNamespace()), nil
}

// appliedBy tells whether fieldManager server-side applied any of the object's fields.
func appliedBy(o *unstructured.Unstructured, fieldManager string) bool {
	for _, m := range o.GetManagedFields() {
		if m.Manager == fieldManager && m.Operation == metav1.ManagedFieldsOperationApply {
			return true
		}
	}
	return false
}
