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
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// ObjectRef names one object an addon applied.
type ObjectRef struct {
	Group, Kind, Namespace, Name string
}

// GroupKind is the object's group and kind.
func (r ObjectRef) GroupKind() schema.GroupKind {
	return schema.GroupKind{Group: r.Group, Kind: r.Kind}
}

func (r ObjectRef) key() string { return objectKey(r.GroupKind(), r.Namespace, r.Name) }

func refOf(o *unstructured.Unstructured) ObjectRef {
	gk := o.GroupVersionKind().GroupKind()
	return ObjectRef{Group: gk.Group, Kind: gk.Kind, Namespace: o.GetNamespace(), Name: o.GetName()}
}

// Inventory is the compact form of a list of ObjectRefs kept in a record: "Kind.group" (plain
// "Kind" for the core group) -> namespace ("" when cluster-scoped) -> sorted names. Written as
// JSON its keys are sorted, so equal inventories give equal records.
type Inventory map[string]map[string][]string

// newInventory builds the inventory of refs; duplicates are kept once.
func newInventory(refs []ObjectRef) Inventory {
	seen := map[string]bool{}
	inv := Inventory{}
	for _, r := range refs {
		if seen[r.key()] {
			continue
		}
		seen[r.key()] = true
		kind := r.Kind
		if r.Group != "" {
			kind += "." + r.Group
		}
		if inv[kind] == nil {
			inv[kind] = map[string][]string{}
		}
		inv[kind][r.Namespace] = append(inv[kind][r.Namespace], r.Name)
	}
	for _, byNamespace := range inv {
		for _, names := range byNamespace {
			sort.Strings(names)
		}
	}
	return inv
}

// Refs lists the inventory's objects in a stable order.
func (inv Inventory) Refs() []ObjectRef {
	var out []ObjectRef
	for kind, byNamespace := range inv {
		k, group, _ := strings.Cut(kind, ".")
		for ns, names := range byNamespace {
			for _, name := range names {
				out = append(out, ObjectRef{Group: group, Kind: k, Namespace: ns, Name: name})
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].key() < out[j].key() })
	return out
}

// plainInventoryLimit is the size above which an inventory is stored gzipped: the records of all
// addons recorded on a namespace share its annotations' 256 KiB, and lists of similar names
// compress several times over.
const plainInventoryLimit = 4 << 10

// maxRecordBytes bounds one record, so that a handful of large addons still fit on one namespace.
// An addon whose record would be larger is refused before anything of it is applied.
const maxRecordBytes = 64 << 10

// setInventory stores refs in the record, gzipped when large.
func (v *ChannelVersion) setInventory(refs []ObjectRef) error {
	inv := newInventory(refs)
	v.Inventory, v.InventoryGzip = nil, ""
	plain, err := json.Marshal(inv)
	if err != nil {
		return err
	}
	if len(plain) <= plainInventoryLimit {
		v.Inventory = &inv
		return nil
	}
	var buf bytes.Buffer
	zw, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if err != nil {
		return err
	}
	if _, err := zw.Write(plain); err != nil {
		return err
	}
	if err := zw.Close(); err != nil {
		return err
	}
	v.InventoryGzip = base64.StdEncoding.EncodeToString(buf.Bytes())
	return nil
}

// Objects are the objects the record's inventory lists (none when it has no inventory).
func (v *ChannelVersion) Objects() ([]ObjectRef, error) {
	if v.InventoryGzip == "" {
		if v.Inventory == nil {
			return nil, nil
		}
		return v.Inventory.Refs(), nil
	}
	raw, err := base64.StdEncoding.DecodeString(v.InventoryGzip)
	if err != nil {
		return nil, fmt.Errorf("decoding inventoryGzip: %w", err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("decoding inventoryGzip: %w", err)
	}
	// A record is at most a namespace's annotations; its inventory cannot honestly unpack to more
	// than a few MiB.
	plain, err := io.ReadAll(io.LimitReader(zr, 16<<20))
	if err != nil {
		return nil, fmt.Errorf("decoding inventoryGzip: %w", err)
	}
	inv := Inventory{}
	if err := json.Unmarshal(plain, &inv); err != nil {
		return nil, fmt.Errorf("decoding inventoryGzip: %w", err)
	}
	return inv.Refs(), nil
}

// Ours tells a record this tool wrote, through fieldManager, from one kops's channels (or an older
// channels) wrote: only ours carry the field manager and an inventory. kops's channels rewrites the
// whole value when it applies an addon, so a record it took over is no longer ours.
func (v *ChannelVersion) Ours(fieldManager string) bool {
	return v != nil && v.FieldManager == fieldManager && (v.Inventory != nil || v.InventoryGzip != "")
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

// newRecord is the record of an addon applied now, listing refs; it is refused when too large.
func (a *Applier) newRecord(ch *Channel, addon *Addon, refs []ObjectRef) (*ChannelVersion, error) {
	channel := ch.Location
	v := &ChannelVersion{
		Channel: &channel, ID: addon.Spec.ID, ManifestHash: addon.Spec.ManifestHash,
		SystemGeneration: SystemGeneration, FieldManager: a.opts.FieldManager,
	}
	if err := v.setInventory(refs); err != nil {
		return nil, err
	}
	if n := len(v.Encode()); n > maxRecordBytes {
		return nil, fmt.Errorf("the record of its %d objects would take %d bytes, more than the %d a record may use on namespace %s: split the addon", len(refs), n, maxRecordBytes, addon.Namespace())
	}
	return v, nil
}

// inventoryFor is what an addon's record lists once it is applied: the objects of its manifest and
// those its previous record (if ours) listed that are still its own, so that an object that left
// the manifest without being pruned, or was handed over to it, can still be retired later.
func (a *Applier) inventoryFor(addon *Addon, prev *ChannelVersion) ([]ObjectRef, error) {
	var refs []ObjectRef
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
func without(refs []ObjectRef, gone map[string]bool) []ObjectRef {
	var out []ObjectRef
	for _, r := range refs {
		if !gone[r.key()] {
			out = append(out, r)
		}
	}
	return out
}
