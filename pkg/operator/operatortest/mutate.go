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

package operatortest

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/runtime"
)

// Mutation is one object the operator might write, and where it departs from the original.
type Mutation struct {
	Path   string
	Object map[string]interface{}
}

// Leaves returns, for every scalar leaf of obj that skip does not refuse, a copy with that leaf changed.
func Leaves(obj map[string]interface{}, skip func(path string) bool) []Mutation {
	var out []Mutation
	walk("", obj, func(path string, v interface{}) {
		if skip(path) {
			return
		}
		var changed interface{}
		switch v := v.(type) {
		case string:
			changed = v + "x"
			if v == "" {
				changed = "x"
			}
		case bool:
			changed = !v
		case int64:
			changed = v + 1
		case float64:
			changed = v + 1
		default:
			return // null, or a container (walk visits its children)
		}
		out = append(out, Mutation{Path: path, Object: set(obj, path, changed)})
	})
	return out
}

// Additions returns, for every map of obj that skip does not refuse, a copy per key add gives for it.
func Additions(obj map[string]interface{}, skip func(path string) bool, add func(path string, m map[string]interface{}) map[string]interface{}) []Mutation {
	var out []Mutation
	walk("", obj, func(path string, v interface{}) {
		m, ok := v.(map[string]interface{})
		if !ok || skip(path) {
			return
		}
		extra := add(path, m)
		for _, k := range slices.Sorted(maps.Keys(extra)) {
			if _, exists := m[k]; exists {
				continue
			}
			child := join(path, k)
			out = append(out, Mutation{Path: child + " (added)", Object: set(obj, child, extra[k])})
		}
	})
	return out
}

func walk(path string, v interface{}, visit func(string, interface{})) {
	visit(path, v)
	switch v := v.(type) {
	case map[string]interface{}:
		for _, k := range slices.Sorted(maps.Keys(v)) {
			walk(join(path, k), v[k], visit)
		}
	case []interface{}:
		for i, e := range v {
			walk(fmt.Sprintf("%s[%d]", path, i), e, visit)
		}
	}
}

func join(path, key string) string {
	if strings.ContainsAny(key, ".[]\"") {
		return path + `["` + key + `"]`
	}
	if path == "" {
		return key
	}
	return path + "." + key
}

func set(obj map[string]interface{}, path string, value interface{}) map[string]interface{} {
	out := runtime.DeepCopyJSON(obj)
	var cur interface{} = out
	steps := split(path)
	for i, s := range steps {
		last := i == len(steps)-1
		switch c := cur.(type) {
		case map[string]interface{}:
			if last {
				c[s.key] = value
				return out
			}
			cur = c[s.key]
		case []interface{}:
			if last {
				c[s.index] = value
				return out
			}
			cur = c[s.index]
		}
	}
	return out
}

type step struct {
	key   string
	index int
}

func split(path string) []step {
	var steps []step
	for len(path) > 0 {
		switch {
		case strings.HasPrefix(path, `["`):
			end := strings.Index(path, `"]`)
			steps = append(steps, step{key: path[2:end]})
			path = path[end+2:]
		case strings.HasPrefix(path, "["):
			end := strings.Index(path, "]")
			var i int
			_, _ = fmt.Sscanf(path[1:end], "%d", &i) // walk wrote the index with %d
			steps = append(steps, step{index: i})
			path = path[end+1:]
		case strings.HasPrefix(path, "."):
			path = path[1:]
		default:
			end := strings.IndexAny(path, ".[")
			if end < 0 {
				end = len(path)
			}
			steps = append(steps, step{key: path[:end]})
			path = path[end:]
		}
	}
	return steps
}
