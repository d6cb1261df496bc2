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

package confine

import (
	"fmt"
	"maps"
	"slices"

	"k8s.io/kops/pkg/operator"
)

// Scope is what the operator may write: the managed objects as kops renders them for this cluster.
type Scope struct {
	Descriptor *Descriptor
	// Objects are in the order of Descriptor.Managed.
	Objects []*ScopeObject
	Params  []Param
}

// ScopeObject is one managed object as rendered, and its literal for the policy.
type ScopeObject struct {
	operator.Managed
	// Rendered includes channels' metadata.
	Rendered map[string]interface{}
	// body maps each compared top-level key (spec, data, ...) to its literal.
	body map[string]string
	// free are, per top-level key, the keys the literal leaves to others.
	free map[string][]string
	// labels and annotations exclude channels' metadata.
	labels, annotations map[string]string
}

// ScopeFromManifest picks d's managed objects out of manifest. marked is the same rendering with
// every param replaced by its marker; without params it is manifest.
func (d *Descriptor) ScopeFromManifest(manifest, marked []byte, params []Param) (*Scope, error) {
	objects, err := d.ManagedObjects(manifest)
	if err != nil {
		return nil, err
	}
	markedObjects, err := d.ManagedObjects(marked)
	if err != nil {
		return nil, fmt.Errorf("the rendering with the instructions' fields marked: %w", err)
	}
	s := &Scope{Descriptor: d, Params: params}
	for i, m := range d.Managed {
		o, err := newScopeObject(m, objects[i], markedObjects[i], params)
		if err != nil {
			return nil, fmt.Errorf("%s %s/%s: %w", m.Kind, d.WatchNamespace, m.Name, err)
		}
		s.Objects = append(s.Objects, o)
	}
	if err := s.checkBudgetSelectors(); err != nil {
		return nil, err
	}
	return s, nil
}

func newScopeObject(m operator.Managed, rendered, marked map[string]interface{}, params []Param) (*ScopeObject, error) {
	rules := kindOf(m.Kind)
	o := &ScopeObject{Managed: m, Rendered: rendered, body: map[string]string{}, free: map[string][]string{}}
	for _, k := range slices.Sorted(maps.Keys(rendered)) {
		switch k {
		case "apiVersion", "kind", "metadata":
			continue
		}
		if rules.Ignored[k] {
			return nil, fmt.Errorf("%s is the server's, and must not be rendered", k)
		}
		free := rules.FreeKeys(k, rendered[k])
		l, err := celLiteral(k, without(rendered[k], free), without(marked[k], free), params)
		if err != nil {
			return nil, err
		}
		o.body[k] = l
		o.free[k] = free
	}
	meta, _ := rendered["metadata"].(map[string]interface{})
	markedMeta, _ := marked["metadata"].(map[string]interface{})
	for _, field := range []string{"labels", "annotations"} {
		if fmt.Sprint(meta[field]) != fmt.Sprint(markedMeta[field]) {
			return nil, fmt.Errorf("metadata.%s depends on the instructions", field)
		}
	}
	o.labels = withoutKeys(stringsOf(meta["labels"]), operator.ChannelsLabels)
	o.annotations = withoutKeys(stringsOf(meta["annotations"]), operator.ChannelsAnnotations)
	return o, nil
}

func without(v interface{}, keys []string) interface{} {
	m, ok := v.(map[string]interface{})
	if !ok || len(keys) == 0 {
		return v
	}
	out := make(map[string]interface{}, len(m))
	for k, e := range m {
		out[k] = e
	}
	for _, k := range keys {
		delete(out, k)
	}
	return out
}

func stringsOf(v interface{}) map[string]string {
	out := map[string]string{}
	m, _ := v.(map[string]interface{})
	for k, e := range m {
		out[k], _ = e.(string)
	}
	return out
}

func withoutKeys(m map[string]string, keys []string) map[string]string {
	for _, k := range keys {
		delete(m, k)
	}
	return m
}
