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
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"

	"k8s.io/kops/channels/pkg/api"
)

// executeRetire removes what addons that left the channel put on the cluster. Which addons those
// are follows from the records as the apply left them (planRetire): a takeover that succeeded is
// ours now and retired, one that failed is left alone. Of a retired addon, exactly the objects its
// inventory lists that still carry its label, that no addon of the channel claims and that our
// field manager applied are deleted, or handed over to the addon their api.AnnotationHandoverTo
// names when that addon is in the channel (the object then moves to that addon's inventory); then
// its record is removed. Namespaces and CRDs stay (deleting them would take everything in them
// along). It runs after the channel's addons were applied, so objects another addon now claims
// carry that addon's label.
func (a *Applier) executeRetire(ctx context.Context, p *plan) []Result {
	inChannel := map[string]bool{}
	claimed := map[string]bool{}
	for _, addon := range p.channel.Addons {
		inChannel[addon.Spec.Name] = true
		for _, o := range addon.Objects {
			claimed[refOf(o).Key()] = true
		}
	}
	results, retire := a.planRetire(p.channel, p.records, nil)
	for _, name := range retire {
		r := Result{Name: name, Reason: "left the channel"}
		done, err := a.retireAddon(ctx, name, p.records, inChannel, claimed)
		if err != nil {
			r.Outcome, r.Reason, r.Err = Failed, fmt.Sprintf("retiring: %v", err), err
		} else if err := a.writeRecord(ctx, p.records[name].namespace, name, nil); err != nil {
			r.Outcome, r.Reason, r.Err = Failed, err.Error(), err
		} else {
			r.Outcome, r.Reason = Retired, r.Reason+done.String()
		}
		results = append(results, r)
	}
	return sortedByName(results)
}

// retiredObject is an object of a retired addon and the addon it is handed over to ("" to delete).
type retiredObject struct {
	obj *unstructured.Unstructured
	ref api.ObjectRef
	to  string
}

// retirement says what retiring one addon did, for the report.
type retirement struct {
	deleted  []string
	handedTo map[string][]string
	// targets are the keys of handedTo, in the order of their first handover.
	targets []string
}

func (r retirement) String() string {
	var parts []string
	for _, to := range r.targets {
		parts = append(parts, fmt.Sprintf("handed over to %s: %s", to, strings.Join(r.handedTo[to], ", ")))
	}
	if len(r.deleted) > 0 {
		parts = append(parts, "deleted: "+strings.Join(r.deleted, ", "))
	}
	if len(parts) == 0 {
		return ""
	}
	return "; " + strings.Join(parts, "; ")
}

func (a *Applier) retireAddon(ctx context.Context, name string, records map[string]record, inChannel, claimed map[string]bool) (retirement, error) {
	done := retirement{handedTo: map[string][]string{}}
	refs, err := records[name].version.Objects()
	if err != nil {
		return done, fmt.Errorf("reading the inventory of its record: %w", err)
	}
	var objs []retiredObject
	for _, group := range groupByKindAndNamespace(refs) {
		gk, ns := group[0].GroupKind(), group[0].Namespace
		if gk == namespaceKind || gk == crdKind {
			continue
		}
		found, err := a.listInventoried(ctx, gk, ns, group, name)
		if err != nil {
			return done, fmt.Errorf("listing %s: %w", gk, err)
		}
		for _, r := range group {
			o := found[r.Key()]
			if o == nil || claimed[r.Key()] || !appliedBy(o, a.opts.FieldManager) {
				continue
			}
			to := o.GetAnnotations()[api.AnnotationHandoverTo]
			if !inChannel[to] {
				to = ""
			} else if !records[to].version.Ours(a.opts.FieldManager) {
				return done, fmt.Errorf("%s %s is to be handed over to %s, which this tool has not recorded yet; retried on the next run", o.GetKind(), objectName(o), to)
			}
			objs = append(objs, retiredObject{obj: o, ref: r, to: to})
		}
	}
	if err := a.moveInventory(ctx, objs, records); err != nil {
		return done, err
	}
	custom, err := a.customKinds(ctx)
	if err != nil {
		return done, err
	}
	// The inventory lists objects by group and kind, which would delete an admission policy before
	// the Roles and the Deployment it confines: deletion follows the apply phases, reversed.
	sortForDeletion(objs, func(ro retiredObject) *unstructured.Unstructured { return ro.obj },
		func(gk schema.GroupKind) bool { return custom[gk] })
	for _, ro := range objs {
		o := ro.obj
		if ro.to != "" {
			if err := a.relabel(ctx, *o, ro.to); err != nil {
				return done, fmt.Errorf("handing %s %s over to %s: %w", o.GetKind(), objectName(o), ro.to, err)
			}
			if _, seen := done.handedTo[ro.to]; !seen {
				done.targets = append(done.targets, ro.to)
			}
			done.handedTo[ro.to] = append(done.handedTo[ro.to], o.GetKind()+" "+objectName(o))
			continue
		}
		// A custom resource's dependents were made by its operator and may have been taken over by
		// another addon already: they are orphaned, not collected.
		propagation := metav1.DeletePropagationBackground
		if custom[ro.ref.GroupKind()] {
			propagation = metav1.DeletePropagationOrphan
		}
		if err := a.delete(ctx, *o, propagation); err != nil {
			return done, fmt.Errorf("deleting %s %s: %w", o.GetKind(), objectName(o), err)
		}
		done.deleted = append(done.deleted, o.GetKind()+" "+objectName(o))
	}
	return done, nil
}

// moveInventory adds the objects handed over to the inventories of the addons receiving them. It
// runs before they are relabelled, so that an object is never outside every inventory: should the
// relabelling fail, the next run finds it again under its old addon's label.
func (a *Applier) moveInventory(ctx context.Context, objs []retiredObject, records map[string]record) error {
	moved := map[string][]api.ObjectRef{}
	for _, ro := range objs {
		if ro.to != "" {
			moved[ro.to] = append(moved[ro.to], ro.ref)
		}
	}
	for _, to := range slices.Sorted(maps.Keys(moved)) {
		target := records[to]
		current, err := target.version.Objects()
		if err != nil {
			return fmt.Errorf("reading the inventory of %s: %w", to, err)
		}
		v := *target.version
		if err := v.SetInventory(append(current, moved[to]...)); err != nil {
			return err
		}
		if n := len(v.Encode()); n > maxRecordBytes {
			return fmt.Errorf("handing objects over to %s would make its record %d bytes, more than %d", to, n, maxRecordBytes)
		}
		if err := a.writeRecord(ctx, target.namespace, to, &v); err != nil {
			return err
		}
		records[to] = record{namespace: target.namespace, version: &v}
	}
	return nil
}

// groupByKindAndNamespace splits sorted refs into runs of one kind in one namespace.
func groupByKindAndNamespace(refs []api.ObjectRef) [][]api.ObjectRef {
	var out [][]api.ObjectRef
	for i, r := range refs {
		if i == 0 || r.GroupKind() != refs[i-1].GroupKind() || r.Namespace != refs[i-1].Namespace {
			out = append(out, nil)
		}
		out[len(out)-1] = append(out[len(out)-1], r)
	}
	return out
}

func (a *Applier) relabel(ctx context.Context, o unstructured.Unstructured, addon string) error {
	client, err := a.clientOf(ctx, o)
	if err != nil {
		return err
	}
	patch, err := json.Marshal(map[string]interface{}{"metadata": map[string]interface{}{"labels": map[string]interface{}{api.LabelAddonName: addon}}})
	if err != nil {
		return err
	}
	_, err = client.Patch(ctx, o.GetName(), types.MergePatchType, patch, metav1.PatchOptions{FieldManager: a.opts.FieldManager})
	return err
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
