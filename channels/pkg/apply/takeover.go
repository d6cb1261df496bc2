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
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"k8s.io/kops/channels/pkg/api"
)

// TakenOver is the outcome of an addon of the channel's takeOver list whose record another tool
// wrote: its manifest was applied over its objects and recorded as ours, and it is retired in the
// same run like any addon of ours that left the channel.
const TakenOver Outcome = "taken over"

// takeOver runs before the channel's addons are applied. For each addon of ch.TakeOver whose record
// another tool (kops's channels) wrote from this channel's location, the objects of its manifest
// that exist on the cluster carrying that tool's label for the addon are applied and recorded, with
// their inventory, in place of that record: retirement, later in the run, then hands them over or
// deletes them exactly as it does the channel's own addons' objects. Nothing is created, and an
// object of the manifest that exists without the label is not touched (it is someone else's), so a
// takeover deletes only objects the other tool made for the addon. A record that is ours, from
// elsewhere or absent is left to the usual rules. It returns the results and, for a dry run, the
// addons it would take over (which retirement then does not report again).
func (a *Applier) takeOver(ctx context.Context, ch *Channel, records map[string]record) ([]Result, map[string]bool) {
	var results []Result
	pending := map[string]bool{}
	provider := providers(ch.Addons)
	for _, addon := range ch.TakeOver {
		rec, ok := records[addon.Spec.Name]
		if !ok || rec.version.Ours(a.opts.FieldManager) || rec.version.Channel == nil || *rec.version.Channel != ch.Location {
			continue
		}
		r := Result{Name: addon.Spec.Name, ID: addon.Spec.ID,
			Reason: "recorded by another tool and replaced in this channel: its objects are taken over, then retired"}
		fail := func(err error) {
			r.Outcome, r.Reason, r.Err = Failed, "taking over: "+err.Error(), err
		}
		made, foreign, err := a.madeByOthers(ctx, addon)
		if len(foreign) > 0 {
			r.Reason += "; not touched, without its label: " + strings.Join(foreign, ", ")
		}
		var refs []api.ObjectRef
		if err == nil {
			refs, err = a.inventoryFor(made, nil)
		}
		if err == nil {
			_, err = a.newRecord(ch, made, refs)
		}
		if err == nil {
			err = a.checkDowngrades(ctx, made)
		}
		switch {
		case err != nil:
			fail(err)
		case !a.opts.Yes:
			r.Outcome = WouldApply
			pending[addon.Spec.Name] = true
		default:
			if err := a.applyObjects(ctx, made, provider); err != nil {
				fail(err)
				break
			}
			written, err := a.newRecord(ch, made, refs)
			if err == nil {
				err = a.writeRecord(ctx, rec.namespace, addon.Spec.Name, written)
			}
			if err != nil {
				fail(err)
				break
			}
			records[addon.Spec.Name] = record{namespace: rec.namespace, version: written}
			r.Outcome = TakenOver
		}
		results = append(results, r)
	}
	return results, pending
}

// madeByOthers is the addon with only the objects of its manifest that exist on the cluster
// carrying the other tool's label for it (api.LabelAddonName or kops's k8s-addon); foreign names those
// that exist without it.
func (a *Applier) madeByOthers(ctx context.Context, addon *Addon) (made *Addon, foreign []string, err error) {
	made = &Addon{Spec: addon.Spec}
	for _, obj := range addon.Objects {
		gvk := obj.GroupVersionKind()
		if _, err := a.resources.RESTMapping(ctx, gvk.GroupKind(), gvk.Version); meta.IsNoMatchError(err) {
			continue // a kind the server does not serve has no objects to take over
		}
		client, err := a.resourceFor(ctx, obj)
		if err != nil {
			return nil, nil, fmt.Errorf("%s %s: %w", obj.GetKind(), objectName(obj), err)
		}
		live, err := client.Get(ctx, obj.GetName(), metav1.GetOptions{})
		switch {
		case apierrors.IsNotFound(err):
		case err != nil:
			return nil, nil, fmt.Errorf("reading %s %s: %w", obj.GetKind(), objectName(obj), err)
		case labelledFor(live, addon.Spec.Name):
			made.Objects = append(made.Objects, obj)
		default:
			foreign = append(foreign, obj.GetKind()+" "+objectName(obj))
		}
	}
	return made, foreign, nil
}

func labelledFor(o *unstructured.Unstructured, addon string) bool {
	l := o.GetLabels()
	return l[api.LabelAddonName] == addon || l[api.LabelKopsAddon] == addon
}

// takeoverNote names, for an addon of the channel whose record another tool wrote, the objects of
// its manifest that exist: those carrying the other tool's label for the addon are replaced in
// place by ours (same name; our fields, such as narrower rules, win), those without it are taken
// too, since the manifest names them. The report says so before and after the apply.
func (a *Applier) takeoverNote(ctx context.Context, addon *Addon) (string, error) {
	made, foreign, err := a.madeByOthers(ctx, addon)
	if err != nil {
		return "", err
	}
	var parts []string
	if len(made.Objects) > 0 {
		names := make([]string, 0, len(made.Objects))
		for _, o := range made.Objects {
			names = append(names, o.GetKind()+" "+objectName(o))
		}
		parts = append(parts, "replacing in place what it made: "+strings.Join(names, ", "))
	}
	if len(foreign) > 0 {
		parts = append(parts, "also taking, without its label: "+strings.Join(foreign, ", "))
	}
	if len(parts) == 0 {
		return "", nil
	}
	return "; " + strings.Join(parts, "; "), nil
}
