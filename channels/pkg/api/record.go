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

package api

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
)

const DefaultNamespace = "kube-system"

func (a AddonSpec) RecordNamespace() string {
	if a.Namespace != "" {
		return a.Namespace
	}
	return DefaultNamespace
}

// ChannelVersion is an addon's record, the value of annotation RecordKeyPrefix+<addon> on its
// record namespace. It extends kops's record with FieldManager and the inventory; kops's channels
// ignores them and drops them when it rewrites the record (see Ours).
type ChannelVersion struct {
	Version          *string `json:"version,omitempty"`
	Channel          *string `json:"channel,omitempty"`
	ID               string  `json:"id,omitempty"`
	ManifestHash     string  `json:"manifestHash,omitempty"`
	SystemGeneration int     `json:"systemGeneration,omitempty"`

	FieldManager string `json:"fieldManager,omitempty"`
	// Inventory lists the objects the addon applied; InventoryGzip holds the same when large. At
	// most one is set. A pointer, so that an empty inventory is still written.
	Inventory     *Inventory `json:"inventory,omitempty"`
	InventoryGzip string     `json:"inventoryGzip,omitempty"`
}

func ParseChannelVersion(s string) (*ChannelVersion, error) {
	v := &ChannelVersion{}
	if err := json.Unmarshal([]byte(s), v); err != nil {
		return nil, fmt.Errorf("parsing addon record %q: %w", s, err)
	}
	return v, nil
}

func (v *ChannelVersion) Encode() string {
	b, _ := json.Marshal(v) // strings, ints and maps of strings always encode
	return string(b)
}

// Ours reports whether channels wrote the record with fieldManager; kops's channels rewrites the
// whole value, so a record it took over is no longer ours.
func (v *ChannelVersion) Ours(fieldManager string) bool {
	return v != nil && v.FieldManager == fieldManager && (v.Inventory != nil || v.InventoryGzip != "")
}

// plainInventoryLimit is the size above which an inventory is gzipped: all records on a namespace
// share its annotations' 256 KiB limit.
const plainInventoryLimit = 4 << 10

func (v *ChannelVersion) SetInventory(refs []ObjectRef) error {
	inv := NewInventory(refs)
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
	// A record fits in a namespace's annotations; bound what it may unpack to.
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
