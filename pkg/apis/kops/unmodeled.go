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

package kops

import (
	"strconv"
	"strings"
)

// Unmodeled is the list of fields of a decoded document that this build does not model, in document
// order. Encoding writes each one back at its path, so a kops field unknown here is never lost.
type Unmodeled []UnmodeledField

// UnmodeledField is one field this build does not model and its value as decoded from YAML.
type UnmodeledField struct {
	Path  FieldPath
	Value interface{}
}

// FieldPath locates a value inside a document: map keys and list indexes from the root.
type FieldPath []PathElement

// PathElement is a map key, or a list index when IsIndex is set.
type PathElement struct {
	Key     string
	Index   int
	IsIndex bool
}

// String renders the path as kops and kubectl do: spec.subnets[0].egress.
func (p FieldPath) String() string {
	var b strings.Builder
	for _, e := range p {
		if e.IsIndex {
			b.WriteString("[" + strconv.Itoa(e.Index) + "]")
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(e.Key)
	}
	return b.String()
}

// Child returns the path extended by a map key, leaving p unchanged.
func (p FieldPath) Child(key string) FieldPath {
	return append(p[:len(p):len(p)], PathElement{Key: key})
}

// At returns the path extended by a list index, leaving p unchanged.
func (p FieldPath) At(i int) FieldPath {
	return append(p[:len(p):len(p)], PathElement{Index: i, IsIndex: true})
}
