package apply

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
)

// retire removes what addons that left the channel put on the cluster (addons recorded as applied
// from this same channel; other channels' addons are theirs to manage): their objects are deleted,
// or handed over to the addon their AnnotationHandoverTo names when that addon is in the channel,
// and their records are removed. Namespaces and CRDs stay (deleting them would take everything in
// them along). It runs after the channel's addons were applied, so objects another addon now claims
// already carry that addon's label and are left alone.
func (a *Applier) retire(ctx context.Context, ch *Channel, records map[string]record) ([]Result, error) {
	inChannel := map[string]bool{}
	for _, addon := range ch.Addons {
		inChannel[addon.Spec.Name] = true
	}
	var removed []string
	for name, rec := range records {
		fromHere := rec.version.Channel != nil && *rec.version.Channel == ch.Location
		if fromHere && !inChannel[name] {
			removed = append(removed, name)
		}
	}
	sort.Strings(removed)
	var results []Result
	for _, name := range removed {
		r := Result{Name: name, Reason: "left the channel"}
		if !a.opts.Yes {
			r.Outcome = WouldPrune
			results = append(results, r)
			continue
		}
		if err := a.retireAddon(ctx, name, inChannel); err != nil {
			r.Outcome, r.Reason, r.Err = Failed, fmt.Sprintf("retiring: %v", err), err
		} else if err := a.writeRecord(ctx, records[name].namespace, name, nil); err != nil {
			r.Outcome, r.Reason, r.Err = Failed, err.Error(), err
		} else {
			r.Outcome = Retired
		}
		results = append(results, r)
	}
	return results, nil
}

func (a *Applier) retireAddon(ctx context.Context, name string, inChannel map[string]bool) error {
	objs, err := a.listEverywhere(ctx, LabelAddonName+"="+name)
	if err != nil {
		return err
	}
	custom, err := a.customKinds(ctx)
	if err != nil {
		return err
	}
	for _, o := range objs {
		gk := o.GroupVersionKind().GroupKind()
		if gk == namespaceKind || gk == crdKind {
			continue
		}
		if to := o.GetAnnotations()[AnnotationHandoverTo]; to != "" && inChannel[to] {
			if err := a.relabel(ctx, o, to); err != nil {
				return fmt.Errorf("handing %s %s over to %s: %w", o.GetKind(), objectName(&o), to, err)
			}
			continue
		}
		// A custom resource's dependents were made by its operator and may have been taken over by
		// another addon already: they are orphaned, not collected.
		propagation := metav1.DeletePropagationBackground
		if custom[gk] {
			propagation = metav1.DeletePropagationOrphan
		}
		if err := a.delete(ctx, o, propagation); err != nil {
			return fmt.Errorf("deleting %s %s: %w", o.GetKind(), objectName(&o), err)
		}
	}
	return nil
}

func (a *Applier) relabel(ctx context.Context, o unstructured.Unstructured, addon string) error {
	client, err := a.clientOf(ctx, o)
	if err != nil {
		return err
	}
	patch, err := json.Marshal(map[string]interface{}{"metadata": map[string]interface{}{"labels": map[string]interface{}{LabelAddonName: addon}}})
	if err != nil {
		return err
	}
	_, err = client.Patch(ctx, o.GetName(), types.MergePatchType, patch, metav1.PatchOptions{FieldManager: a.opts.FieldManager})
	return err
}

// listEverywhere lists the objects matching a label selector in every resource the server serves
// that can be listed and deleted.
func (a *Applier) listEverywhere(ctx context.Context, selector string) ([]unstructured.Unstructured, error) {
	resources, err := a.resources.Deletable(ctx)
	if err != nil {
		return nil, err
	}
	var out []unstructured.Unstructured
	for _, r := range resources {
		items, err := a.dynamic.Resource(r).List(ctx, metav1.ListOptions{LabelSelector: selector})
		if err != nil {
			return nil, fmt.Errorf("listing %s: %w", r, err)
		}
		out = append(out, items.Items...)
	}
	return out, nil
}

// customKinds are the kinds the server's CRDs define.
func (a *Applier) customKinds(ctx context.Context) (map[schema.GroupKind]bool, error) {
	crds, err := a.dynamic.Resource(crdResource).List(ctx, metav1.ListOptions{})
	if err != nil {
		return nil, fmt.Errorf("listing CRDs: %w", err)
	}
	out := map[schema.GroupKind]bool{}
	for _, crd := range crds.Items {
		group, _, _ := unstructured.NestedString(crd.Object, "spec", "group")
		kind, _, _ := unstructured.NestedString(crd.Object, "spec", "names", "kind")
		out[schema.GroupKind{Group: group, Kind: kind}] = true
	}
	return out, nil
}

func hasVerbs(verbs metav1.Verbs, want ...string) bool {
	for _, w := range want {
		found := false
		for _, v := range verbs {
			found = found || v == w
		}
		if !found {
			return false
		}
	}
	return true
}
