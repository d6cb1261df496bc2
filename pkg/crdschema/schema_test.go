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

package crdschema

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

type item struct {
	Key   string `json:"key"`
	Count int32  `json:"count,omitempty"`
}

type widget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              struct {
		Name    string      `json:"name"`
		Enabled *bool       `json:"enabled,omitempty"`
		Size    int64       `json:"size,omitempty"`
		Items   []item      `json:"items,omitempty"`
		When    metav1.Time `json:"when"`
		hidden  string
		Skipped string `json:"-"`
	} `json:"spec"`
}

// The schema follows the Go type: json names, types and formats, fields without omitempty
// required, inline fields flattened, metadata left to the API server, unexported and "-" fields
// left out; the table adds validations where they fit.
func TestSchemaFollowsTheType(t *testing.T) {
	five, zero := int64(5), 0.0
	s, err := Schema(reflect.TypeOf(widget{}), Fields{
		"":                 {Description: "A widget."},
		"spec.name":        {MaxLength: &five, Pattern: "^[a-z]+$", Enum: []string{"a", "b"}},
		"spec.size":        {Minimum: &zero},
		"spec.items":       {MaxItems: &five, MapKeys: []string{"key"}},
		"spec.items[].key": {Rules: []apiextensionsv1.ValidationRule{{Rule: "self != ''", Message: "set"}}},
	})
	require.NoError(t, err)
	got, err := json.Marshal(s)
	require.NoError(t, err)
	assert.JSONEq(t, `{
		"description": "A widget.",
		"type": "object",
		"required": ["spec"],
		"properties": {
			"apiVersion": {"type": "string"},
			"kind": {"type": "string"},
			"metadata": {"type": "object"},
			"spec": {
				"type": "object",
				"required": ["name", "when"],
				"properties": {
					"name": {"type": "string", "maxLength": 5, "pattern": "^[a-z]+$", "enum": ["a", "b"]},
					"enabled": {"type": "boolean"},
					"size": {"type": "integer", "format": "int64", "minimum": 0},
					"items": {
						"type": "array", "maxItems": 5,
						"x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["key"],
						"items": {
							"type": "object",
							"required": ["key"],
							"properties": {
								"key": {"type": "string", "x-kubernetes-validations": [{"rule": "self != ''", "message": "set"}]},
								"count": {"type": "integer", "format": "int32"}
							}
						}
					},
					"when": {"type": "string", "format": "date-time"}
				}
			}
		}
	}`, string(got))
}

// A refused property is declared after the type's and refused by a rule, whatever its value.
func TestSchemaRefused(t *testing.T) {
	type spec struct {
		Version string `json:"version"`
	}
	s, err := Schema(reflect.TypeOf(spec{}), Fields{"": {Refused: []Refused{
		{Name: "channel", Type: reflect.TypeOf(""), Why: "nothing is fetched"},
		{Name: "patches", Type: reflect.TypeOf([]struct{}{}), Why: "nothing is patched"},
	}}})
	require.NoError(t, err)
	got, err := json.Marshal(s)
	require.NoError(t, err)
	assert.JSONEq(t, `{
		"type": "object",
		"required": ["version"],
		"properties": {
			"version": {"type": "string"},
			"channel": {"type": "string", "description": "`+refusedDescription+`"},
			"patches": {"type": "array", "description": "`+refusedDescription+`", "items": {"type": "object"}}
		},
		"x-kubernetes-validations": [
			{"rule": "!has(self.channel)", "message": "cannot be set; nothing is fetched", "fieldPath": ".channel", "reason": "FieldValueForbidden"},
			{"rule": "!has(self.patches)", "message": "cannot be set; nothing is patched", "fieldPath": ".patches", "reason": "FieldValueForbidden"}
		]
	}`, string(got))
}

// Every problem is reported with its path, so that the table cannot drift from the type and no
// type is guessed at.
func TestSchemaRefuses(t *testing.T) {
	five := int64(5)
	type untagged struct {
		Name string
	}
	type withMap struct {
		Labels map[string]string `json:"labels"`
	}
	type withInt struct {
		N int `json:"n"`
	}
	type spec struct {
		Name string `json:"name"`
		Size int64  `json:"size"`
	}
	cases := []struct {
		name   string
		t      reflect.Type
		fields Fields
		want   string
	}{
		{"a field renamed in Go", reflect.TypeOf(spec{}), Fields{"title": {MaxLength: &five}},
			"title: names no field of crdschema.spec"},
		{"no json tag", reflect.TypeOf(untagged{}), nil, "(the object): field Name has no json tag"},
		{"a map", reflect.TypeOf(withMap{}), nil, "labels: Go type map[string]string is not supported"},
		{"a platform int", reflect.TypeOf(withInt{}), nil, "n: Go type int is not supported"},
		{"a pattern on a number", reflect.TypeOf(spec{}), Fields{"size": {Pattern: "x"}},
			"size: maxLength, pattern, enum and format applies to a string, not integer"},
		{"maxItems on a string", reflect.TypeOf(spec{}), Fields{"name": {MaxItems: &five}},
			"name: maxItems and mapKeys applies to a list, not string"},
		{"refusing a field the type has", reflect.TypeOf(spec{}), Fields{"": {Refused: []Refused{{Name: "name", Type: reflect.TypeOf(""), Why: "x"}}}},
			"(the object): name is a field of the type; it cannot also be refused"},
		{"refused without a reason", reflect.TypeOf(spec{}), Fields{"": {Refused: []Refused{{Name: "channel", Type: reflect.TypeOf("")}}}},
			"(the object): refused channel needs a Type and a Why"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Schema(tc.t, tc.fields)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}

type generic[S any] struct {
	Spec S `json:"spec"`
}

// Errors name a type as its package's code does, a generic one's arguments by package name too.
func TestTypeName(t *testing.T) {
	cases := []struct {
		t    reflect.Type
		want string
	}{
		{reflect.TypeOf(item{}), "crdschema.item"},
		{reflect.TypeOf(generic[item]{}), "crdschema.generic[crdschema.item]"},
		{reflect.TypeOf(generic[map[string]item]{}), "crdschema.generic[map[string]crdschema.item]"},
		{reflect.TypeOf(generic[generic[metav1.Time]]{}), "crdschema.generic[crdschema.generic[v1.Time]]"},
	}
	for _, tc := range cases {
		assert.Equal(t, tc.want, typeName(tc.t))
	}
	_, err := Schema(reflect.TypeOf(generic[item]{}), Fields{"spec.kee": {}})
	assert.EqualError(t, err, "schema of crdschema.generic[crdschema.item]: spec.kee: names no field of crdschema.generic[crdschema.item]")
}
