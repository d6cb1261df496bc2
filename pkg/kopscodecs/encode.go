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

package kopscodecs

import (
	"bytes"
	"encoding/json"
	"fmt"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/yaml"

	"k8s.io/kops/pkg/apis/kops"
)

func EncodeCluster(c *kops.Cluster) ([]byte, error) {
	c = c.DeepCopy()
	c.APIVersion, c.Kind = kops.GroupVersion, kops.KindCluster
	return encode(c, c.Unmodeled)
}

func EncodeInstanceGroup(g *kops.InstanceGroup) ([]byte, error) {
	g = g.DeepCopy()
	g.APIVersion, g.Kind = kops.GroupVersion, kops.KindInstanceGroup
	return encode(g, g.Unmodeled)
}

func encode(obj interface{}, unmodeled kops.Unmodeled) ([]byte, error) {
	b, err := json.Marshal(obj)
	if err != nil {
		return nil, err
	}
	var tree map[string]interface{}
	if err := json.Unmarshal(b, &tree); err != nil {
		return nil, err
	}
	dropNullCreationTimestamp(tree)
	for _, f := range unmodeled {
		if err := place(tree, f.Path, f.Value); err != nil {
			return nil, fmt.Errorf("writing back field %s: %w", f.Path, err)
		}
	}
	return yaml.Marshal(tree)
}

// place creates maps on the way; lists must already be long enough, since unmodeled fields in list
// items exist only where the item came from the document.
func place(tree map[string]interface{}, path kops.FieldPath, value interface{}) error {
	var cur interface{} = tree
	for i, e := range path {
		last := i == len(path)-1
		switch {
		case e.IsIndex:
			list, ok := cur.([]interface{})
			if !ok || e.Index >= len(list) {
				return fmt.Errorf("%s is not a list with an item %d", path[:i], e.Index)
			}
			if last {
				list[e.Index] = value
				return nil
			}
			cur = list[e.Index]
		default:
			m, ok := cur.(map[string]interface{})
			if !ok {
				return fmt.Errorf("%s is not an object", path[:i])
			}
			if last {
				m[e.Key] = value
				return nil
			}
			next, exists := m[e.Key]
			if !exists || next == nil {
				if path[i+1].IsIndex {
					return fmt.Errorf("%s is not a list", path[:i+1])
				}
				next = map[string]interface{}{}
				m[e.Key] = next
			}
			cur = next
		}
	}
	return nil
}

func dropNullCreationTimestamp(tree map[string]interface{}) {
	if meta, ok := tree["metadata"].(map[string]interface{}); ok {
		if ts, present := meta["creationTimestamp"]; present && ts == nil {
			delete(meta, "creationTimestamp")
		}
	}
}

func jsonMarshal(v interface{}) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func EncodeAddons(objs []*unstructured.Unstructured) ([]byte, error) {
	var out bytes.Buffer
	for i, o := range objs {
		b, err := yaml.Marshal(o.Object)
		if err != nil {
			return nil, fmt.Errorf("encoding addon %s %q: %w", o.GetKind(), o.GetName(), err)
		}
		if i > 0 {
			out.WriteString("---\n")
		}
		out.Write(b)
	}
	return out.Bytes(), nil
}
