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

// Unmodeled lists, in document order, the fields this build does not model; encoding writes each
// back at its path so a kops field is never lost.
type Unmodeled []UnmodeledField

type UnmodeledField struct {
	Path  FieldPath
	Value interface{}
}

type FieldPath []PathElement

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

func (p FieldPath) Child(key string) FieldPath {
	return append(p[:len(p):len(p)], PathElement{Key: key})
}

func (p FieldPath) At(i int) FieldPath {
	return append(p[:len(p):len(p)], PathElement{Index: i, IsIndex: true})
}
