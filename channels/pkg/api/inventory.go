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
	"sort"
	"strings"

	"k8s.io/apimachinery/pkg/runtime/schema"
)

// ObjectRef names one object an addon applied.
type ObjectRef struct {
	Group, Kind, Namespace, Name string
}

func (r ObjectRef) GroupKind() schema.GroupKind {
	return schema.GroupKind{Group: r.Group, Kind: r.Kind}
}

// Key identifies the object whatever version of its kind was applied.
func (r ObjectRef) Key() string {
	return strings.Join([]string{r.Group, r.Kind, r.Namespace, r.Name}, "/")
}

// Inventory maps "Kind.group" ("Kind" for the core group) to namespace ("" when cluster-scoped)
// to sorted names, so equal inventories give equal records.
type Inventory map[string]map[string][]string

func NewInventory(refs []ObjectRef) Inventory {
	seen := map[string]bool{}
	inv := Inventory{}
	for _, r := range refs {
		if seen[r.Key()] {
			continue
		}
		seen[r.Key()] = true
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
	sort.Slice(out, func(i, j int) bool { return out[i].Key() < out[j].Key() })
	return out
}
