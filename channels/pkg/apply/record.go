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

// Package apply puts a bootstrap channel's addons on a cluster: each addon whose recorded version
// differs is server-side applied, in an order that cannot race, and recorded on its namespace in
// kops's annotation format, so kops's channels and this one read each other's records.
package apply

import (
	"encoding/json"
	"fmt"
)

// AnnotationPrefix is followed by the addon's name; the value is a ChannelVersion in JSON.
const AnnotationPrefix = "addons.k8s.io/"

// DefaultNamespace holds the records of addons that name no namespace.
const DefaultNamespace = "kube-system"

// SystemGeneration is bumped when this tool changes how it applies, forcing a re-apply.
const SystemGeneration = 1

// ChannelVersion is what was applied for an addon, as kops records it (version, channel, id,
// manifestHash, systemGeneration), plus what this tool adds: the field manager that applied the
// addon and the inventory of its objects. kops's channels reads the value with a plain
// json.Unmarshal, which ignores the added fields, and replaces the whole value when it applies the
// addon itself, which drops them: the record is then no longer ours (see Ours).
type ChannelVersion struct {
	Version          *string `json:"version,omitempty"`
	Channel          *string `json:"channel,omitempty"`
	ID               string  `json:"id,omitempty"`
	ManifestHash     string  `json:"manifestHash,omitempty"`
	SystemGeneration int     `json:"systemGeneration,omitempty"`

	// FieldManager is the field manager this tool applied the addon with.
	FieldManager string `json:"fieldManager,omitempty"`
	// Inventory lists the objects the addon applied; InventoryGzip holds the same, gzipped and
	// base64-encoded, when it is large. At most one is set.
	// A pointer, so that an empty inventory is still written.
	Inventory     *Inventory `json:"inventory,omitempty"`
	InventoryGzip string     `json:"inventoryGzip,omitempty"`
}

// ParseChannelVersion reads a record annotation's value.
func ParseChannelVersion(s string) (*ChannelVersion, error) {
	v := &ChannelVersion{}
	if err := json.Unmarshal([]byte(s), v); err != nil {
		return nil, fmt.Errorf("parsing addon record %q: %w", s, err)
	}
	return v, nil
}

// Encode renders the record as the annotation's value.
func (v *ChannelVersion) Encode() string {
	b, _ := json.Marshal(v) // strings, ints and maps of strings always encode
	return string(b)
}

// reasonToApply says why an addon must be applied over what is recorded, or "" when it need not be.
// A record without our inventory (kops's channels, an older channels) is taken over: applied over
// once, whatever its version, so that the addon's objects are known and can be retired or pruned
// later.
func reasonToApply(recorded *ChannelVersion, id, hash, fieldManager string) string {
	switch {
	case recorded == nil:
		return "new: the cluster does not run it yet"
	case !recorded.Ours(fieldManager):
		return "taking over: another tool recorded it, without an inventory of " + fieldManager + "'s"
	case recorded.ID != id:
		return fmt.Sprintf("its id changed from %q to %q", recorded.ID, id)
	case recorded.ManifestHash != hash:
		return "its manifest changed"
	case recorded.SystemGeneration < SystemGeneration:
		return "an older channels applied it"
	}
	return ""
}
