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
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"k8s.io/kops/channels/pkg/api"
)

func refOf(o *unstructured.Unstructured) api.ObjectRef {
	gk := o.GroupVersionKind().GroupKind()
	return api.ObjectRef{Group: gk.Group, Kind: gk.Kind, Namespace: o.GetNamespace(), Name: o.GetName()}
}

// maxRecordBytes bounds one record, so that a handful of large addons still fit on one namespace.
// An addon whose record would be larger is refused before anything of it is applied.
const maxRecordBytes = 64 << 10

// appliedBy tells whether fieldManager server-side applied any of the object's fields.
func appliedBy(o *unstructured.Unstructured, fieldManager string) bool {
	for _, m := range o.GetManagedFields() {
		if m.Manager == fieldManager && m.Operation == metav1.ManagedFieldsOperationApply {
			return true
		}
	}
	return false
}

// newRecord is the record of an addon applied now, listing refs; it is refused when too large.
func (a *Applier) newRecord(ch *Channel, addon *Addon, refs []api.ObjectRef) (*api.ChannelVersion, error) {
	channel := ch.Location
	v := &api.ChannelVersion{
		Channel: &channel, ID: addon.Spec.ID, ManifestHash: addon.Spec.ManifestHash,
		SystemGeneration: SystemGeneration, FieldManager: a.opts.FieldManager,
	}
	if err := v.SetInventory(refs); err != nil {
		return nil, err
	}
	if n := len(v.Encode()); n > maxRecordBytes {
		return nil, fmt.Errorf("the record of its %d objects would take %d bytes, more than the %d a record may use on namespace %s: split the addon", len(refs), n, maxRecordBytes, addon.Spec.RecordNamespace())
	}
	return v, nil
}

// inventoryFor is what an addon's record lists once it is applied: the objects of its manifest and
// those its previous record (if ours) listed that are still its own, so that an object that left
// the manifest without being pruned, or was handed over to it, can still be retired later.
func (a *Applier) inventoryFor(addon *Addon, prev *api.ChannelVersion) ([]api.ObjectRef, error) {
	var refs []api.ObjectRef
	for _, o := range addon.Objects {
		refs = append(refs, refOf(o))
	}
	if !prev.Ours(a.opts.FieldManager) {
		return refs, nil
	}
	old, err := prev.Objects()
	if err != nil {
		return nil, fmt.Errorf("reading the inventory of its record: %w", err)
	}
	return append(refs, old...), nil
}

// without drops refs whose keys are in gone.
func without(refs []api.ObjectRef, gone map[string]bool) []api.ObjectRef {
	var out []api.ObjectRef
	for _, r := range refs {
		if !gone[r.Key()] {
			out = append(out, r)
		}
	}
	return out
}
