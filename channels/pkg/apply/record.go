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

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"

	"k8s.io/kops/channels/pkg/api"
)

// SystemGeneration is bumped when this tool changes how it applies, forcing a re-apply.
const SystemGeneration = 1

var namespaceResource = schema.GroupVersionResource{Version: "v1", Resource: "namespaces"}

// record is an addon's record and the namespace holding it.
type record struct {
	namespace string
	version   *api.ChannelVersion
}

// readRecords reads the records of every namespace that may hold one: kube-system and the
// namespaces the channel's addons name.
func (a *Applier) readRecords(ctx context.Context, ch *Channel) (map[string]record, error) {
	namespaces := map[string]bool{api.DefaultNamespace: true}
	for _, addon := range ch.Addons {
		namespaces[addon.Spec.RecordNamespace()] = true
	}
	records := map[string]record{}
	for _, ns := range slices.Sorted(maps.Keys(namespaces)) {
		obj, err := a.dynamic.Resource(namespaceResource).Get(ctx, ns, metav1.GetOptions{})
		if err != nil {
			if apierrors.IsNotFound(err) {
				continue
			}
			return nil, fmt.Errorf("reading the addon records on namespace %s: %w", ns, err)
		}
		for key, value := range obj.GetAnnotations() {
			name, ok := strings.CutPrefix(key, api.RecordKeyPrefix)
			if !ok {
				continue
			}
			v, err := api.ParseChannelVersion(value)
			if err != nil {
				return nil, fmt.Errorf("namespace %s, annotation %s: %w", ns, key, err)
			}
			records[name] = record{namespace: ns, version: v}
		}
	}
	return records, nil
}

// writeRecord sets (or, with nil, removes) an addon's record annotation on its namespace.
func (a *Applier) writeRecord(ctx context.Context, namespace, name string, v *api.ChannelVersion) error {
	var value interface{}
	if v != nil {
		value = v.Encode()
	}
	patch, err := json.Marshal(map[string]interface{}{"metadata": map[string]interface{}{"annotations": map[string]interface{}{api.RecordKeyPrefix + name: value}}})
	if err != nil {
		return err
	}
	if _, err := a.dynamic.Resource(namespaceResource).Patch(ctx, namespace, types.MergePatchType, patch, metav1.PatchOptions{FieldManager: a.opts.FieldManager}); err != nil {
		return fmt.Errorf("recording addon %s on namespace %s: %w", name, namespace, err)
	}
	return nil
}

// maxRecordBytes bounds one record, so that a handful of large addons still fit on one namespace.
// An addon whose record would be larger is refused before anything of it is applied.
const maxRecordBytes = 64 << 10

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

func refOf(o *unstructured.Unstructured) api.ObjectRef {
	gk := o.GroupVersionKind().GroupKind()
	return api.ObjectRef{Group: gk.Group, Kind: gk.Kind, Namespace: o.GetNamespace(), Name: o.GetName()}
}
