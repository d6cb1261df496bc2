package apply

import (
	"context"
	"fmt"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"

	"k8s.io/kops/channels/pkg/api"
)

// LabelAddonName is the label every object of an addon carries; pruning and retiring find objects
// by it.
const LabelAddonName = "addon.kops.k8s.io/name"

// AnnotationHandoverTo names the addon that takes an object over when its own addon leaves the
// channel (CoreDNS's Deployment, handed to the operator that reconciles it): the object is
// relabelled instead of deleted, so the service it provides never stops.
const AnnotationHandoverTo = "addon.kops.k8s.io/handover-to"

// prune deletes, for an addon with a prune spec, the objects of the listed kinds that carry its
// label but are no longer in its manifest. Namespaces and CRDs are never pruned: deleting them
// would take everything in them along.
func (a *Applier) prune(ctx context.Context, addon *Addon) error {
	if addon.Spec.Prune == nil {
		return nil
	}
	wanted := map[string]bool{}
	for _, o := range addon.Objects {
		wanted[objectKey(o.GroupVersionKind().GroupKind(), o.GetNamespace(), o.GetName())] = true
	}
	for _, k := range addon.Spec.Prune.Kinds {
		gk := schema.GroupKind{Group: k.Group, Kind: k.Kind}
		if gk == namespaceKind || gk == crdKind {
			continue
		}
		objs, err := a.list(ctx, gk, k, addon.Spec.Name)
		if err != nil {
			return fmt.Errorf("pruning %s: %w", gk, err)
		}
		for _, o := range objs {
			if wanted[objectKey(gk, o.GetNamespace(), o.GetName())] {
				continue
			}
			if err := a.delete(ctx, o, metav1.DeletePropagationBackground); err != nil {
				return fmt.Errorf("pruning %s %s: %w", gk.Kind, objectName(&o), err)
			}
		}
	}
	return nil
}

// list finds the objects of a kind that carry the addon's label and the spec's selector, in the
// spec's namespaces (all when none).
func (a *Applier) list(ctx context.Context, gk schema.GroupKind, k api.PruneKindSpec, addonName string) ([]unstructured.Unstructured, error) {
	mapping, err := a.resources.RESTMapping(ctx, gk)
	if err != nil {
		return nil, err
	}
	selector := LabelAddonName + "=" + addonName
	if k.LabelSelector != "" {
		selector += "," + k.LabelSelector
	}
	namespaces := k.Namespaces
	if len(namespaces) == 0 || mapping.Scope.Name() != meta.RESTScopeNameNamespace {
		namespaces = []string{metav1.NamespaceAll}
	}
	var out []unstructured.Unstructured
	for _, ns := range namespaces {
		list, err := a.dynamic.Resource(mapping.Resource).Namespace(ns).List(ctx, metav1.ListOptions{LabelSelector: selector})
		if err != nil {
			return nil, err
		}
		out = append(out, list.Items...)
	}
	return out, nil
}

func (a *Applier) delete(ctx context.Context, o unstructured.Unstructured, propagation metav1.DeletionPropagation) error {
	client, err := a.clientOf(ctx, o)
	if err != nil {
		return err
	}
	err = client.Delete(ctx, o.GetName(), metav1.DeleteOptions{PropagationPolicy: &propagation})
	if apierrors.IsNotFound(err) {
		return nil
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

func objectKey(gk schema.GroupKind, namespace, name string) string {
	return strings.Join([]string{gk.Group, gk.Kind, namespace, name}, "/")
}
