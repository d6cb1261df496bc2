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
	"testing"

	"github.com/stretchr/testify/assert"
)

type inner struct {
	Kind string `json:"kind"`
}

type hidden struct{ Secret string }

type outer struct {
	inner  `json:",inline"`
	hidden `json:"-"`
	Name   string `json:"name,omitempty"`
	Plain  int
	skip   string //nolint:unused // an unexported field is not a JSON field
	Omit   string `json:"-"`
}

func TestJSONFields(t *testing.T) {
	got := JSONFields(reflect.TypeOf(outer{}))
	assert.Equal(t, map[string]reflect.Type{
		"kind":  reflect.TypeOf(""),
		"name":  reflect.TypeOf(""),
		"Plain": reflect.TypeOf(0),
	}, got)
}

func TestLinesOf(t *testing.T) {
	lines := Lines{"spec": 3, "spec.addons[1]": 9, "spec.addons[1].name": 10}
	cases := []struct {
		path string
		want int
	}{
		{"spec.addons[1].name", 10},
		{"spec.addons[1].manifest", 9},
		{"spec.addons[2].name", 3},
		{"metadata.name", 7},
		{"", 7},
	}
	for _, tc := range cases {
		t.Run(tc.path, func(t *testing.T) {
			assert.Equal(t, tc.want, lines.Of(tc.path, 7))
		})
	}
}

var fieldsSink map[string]reflect.Type

func TestJSONFieldsComputedOnce(t *testing.T) {
	typ := reflect.TypeOf(outer{})
	first := JSONFields(typ)
	allocs := testing.AllocsPerRun(10, func() { fieldsSink = JSONFields(typ) })
	assert.Zero(t, allocs, "the fields of a type are walked once, not per document")
	assert.Equal(t, reflect.ValueOf(first).Pointer(), reflect.ValueOf(fieldsSink).Pointer())
}
