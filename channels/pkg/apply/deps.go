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
	"maps"
	"slices"
	"sort"
	"strings"

	"k8s.io/apimachinery/pkg/runtime/schema"
)

// providers maps each custom kind to the addon whose CRD defines it.
func providers(addons []*Addon) map[schema.GroupKind]string {
	out := map[schema.GroupKind]string{}
	for _, a := range addons {
		for _, gk := range a.providedKinds() {
			out[gk] = a.Spec.Name
		}
	}
	return out
}

// customIn says whether a kind is a custom resource, by the channel's CRDs (providers).
func customIn(provider map[schema.GroupKind]string) func(schema.GroupKind) bool {
	return func(gk schema.GroupKind) bool { _, ok := provider[gk]; return ok }
}

// dependencies are the other addons whose CRDs define kinds this addon's objects use, or, with
// needsPKI, its Issuer, sorted.
func dependencies(a *Addon, provider map[schema.GroupKind]string) []string {
	seen := map[string]bool{}
	if p, ok := provider[issuerKind]; ok && a.Spec.NeedsPKI && p != a.Spec.Name {
		seen[p] = true
	}
	for _, o := range a.Objects {
		if p, ok := provider[o.GroupVersionKind().GroupKind()]; ok && p != a.Spec.Name {
			seen[p] = true
		}
	}
	return slices.Sorted(maps.Keys(seen))
}

// addonOrder is the channel's order, except that an addon using a custom kind comes after the addon
// defining it, whatever order the channel lists them in. Ties keep the channel's order.
func addonOrder(addons []*Addon) ([]*Addon, error) {
	provider := providers(addons)
	index := map[string]int{}
	for i, a := range addons {
		index[a.Spec.Name] = i
	}
	waiting := make([]int, len(addons))
	users := make([][]int, len(addons))
	for i, a := range addons {
		for _, dep := range dependencies(a, provider) {
			waiting[i]++
			users[index[dep]] = append(users[index[dep]], i)
		}
	}
	var ready []int
	for i := range addons {
		if waiting[i] == 0 {
			ready = append(ready, i)
		}
	}
	var out []*Addon
	for len(ready) > 0 {
		sort.Ints(ready)
		i := ready[0]
		ready = ready[1:]
		out = append(out, addons[i])
		for _, u := range users[i] {
			if waiting[u]--; waiting[u] == 0 {
				ready = append(ready, u)
			}
		}
	}
	if len(out) < len(addons) {
		var stuck []string
		for i, a := range addons {
			if waiting[i] > 0 {
				stuck = append(stuck, a.Spec.Name)
			}
		}
		return nil, fmt.Errorf("addons %s need each other's custom resource definitions", strings.Join(stuck, ", "))
	}
	return out, nil
}
