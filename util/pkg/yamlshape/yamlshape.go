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

package yamlshape

import (
	"reflect"
	"strings"
	"sync"
)

// fieldsOf caches JSONFields per type: decoders ask for the same few types on every document.
var fieldsOf sync.Map // reflect.Type -> map[string]reflect.Type

// JSONFields maps a struct's JSON field names to their Go types, flattening as encoding/json does.
// The map is shared: never change it.
func JSONFields(t reflect.Type) map[string]reflect.Type {
	if fields, ok := fieldsOf.Load(t); ok {
		return fields.(map[string]reflect.Type)
	}
	fields, _ := fieldsOf.LoadOrStore(t, jsonFields(t))
	return fields.(map[string]reflect.Type)
}

func jsonFields(t reflect.Type) map[string]reflect.Type {
	out := map[string]reflect.Type{}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		name, opts, _ := strings.Cut(tag, ",")
		if tag == "-" || (!f.IsExported() && !f.Anonymous) {
			continue
		}
		if f.Anonymous && (name == "" || strings.Contains(opts, "inline")) && f.Type.Kind() == reflect.Struct {
			for k, v := range jsonFields(f.Type) {
				out[k] = v
			}
			continue
		}
		if name == "" {
			name = f.Name
		}
		out[name] = f.Type
	}
	return out
}

type Lines map[string]int

// Of is the line of path, or its closest written ancestor, or fallback.
func (l Lines) Of(path string, fallback int) int {
	for path != "" {
		if n, ok := l[path]; ok {
			return n
		}
		cut := strings.LastIndexAny(path, ".[")
		if cut < 0 {
			break
		}
		path = path[:cut]
	}
	return fallback
}
