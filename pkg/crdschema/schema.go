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
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Fields is keyed by JSON path ("" the object, "status.conditions[].type" a field of list items).
// Schema refuses a path naming no field, so a renamed Go field cannot silently lose its validation.
type Fields map[string]Field

type Field struct {
	Description string
	// MaxLength bounds a string, MaxItems a list, Minimum a number.
	MaxLength *int64
	MaxItems  *int64
	Minimum   *float64
	Pattern   string
	Format    string
	Enum      []string
	Rules     []apiextensionsv1.ValidationRule
	// MapKeys makes the list x-kubernetes-list-type: map, so server-side apply merges items by key.
	MapKeys []string
	// Refused properties are declared only to be refused: an undeclared field is only pruned unless the
	// client asks for strict validation, so an old client would believe it was accepted.
	Refused []Refused
}

type Refused struct {
	Name string
	// Type is the Go type of the values it used to take.
	Type reflect.Type
	// Why completes the error message "cannot be set; <Why>".
	Why string
}

const refusedDescription = "Not accepted. Declared only so that an object setting it is refused with a clear error."

// Schema returns the structural schema of t with fields applied, or every problem found (unsupported
// types, missing json tags, unknown Field paths, Fields that do not fit their node).
func Schema(t reflect.Type, fields Fields) (*apiextensionsv1.JSONSchemaProps, error) {
	w := &walker{fields: fields, used: map[string]bool{}}
	s := w.schema("", t)
	for _, path := range slices.Sorted(maps.Keys(fields)) {
		if !w.used[path] {
			w.problems = append(w.problems, fmt.Sprintf("%s: names no field of %s", describe(path), typeName(t)))
		}
	}
	if len(w.problems) > 0 {
		return nil, fmt.Errorf("schema of %s: %s", typeName(t), strings.Join(w.problems, "; "))
	}
	return s, nil
}

type walker struct {
	fields   Fields
	used     map[string]bool
	problems []string
}

var (
	timeType       = reflect.TypeOf(metav1.Time{})
	objectMetaType = reflect.TypeOf(metav1.ObjectMeta{})
)

func (w *walker) schema(path string, t reflect.Type) *apiextensionsv1.JSONSchemaProps {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	s := &apiextensionsv1.JSONSchemaProps{}
	switch {
	case t == timeType:
		s.Type, s.Format = "string", "date-time"
	case t == objectMetaType:
		// The API server validates metadata itself; a CRD may not describe it beyond its type.
		s.Type = "object"
	case t.Kind() == reflect.String:
		s.Type = "string"
	case t.Kind() == reflect.Bool:
		s.Type = "boolean"
	case t.Kind() == reflect.Int64:
		s.Type, s.Format = "integer", "int64"
	case t.Kind() == reflect.Int32:
		s.Type, s.Format = "integer", "int32"
	case t.Kind() == reflect.Slice && t.Elem().Kind() != reflect.Uint8:
		s.Type = "array"
		s.Items = &apiextensionsv1.JSONSchemaPropsOrArray{Schema: w.schema(path+"[]", t.Elem())}
	case t.Kind() == reflect.Struct:
		s.Type = "object"
		w.properties(path, t, s)
	default:
		w.problems = append(w.problems, fmt.Sprintf("%s: Go type %s is not supported", describe(path), t))
	}
	w.apply(path, s)
	return s
}

// properties flattens inline fields; a field without omitempty is required.
func (w *walker) properties(path string, t reflect.Type, s *apiextensionsv1.JSONSchemaProps) {
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		tag, ok := f.Tag.Lookup("json")
		if !ok {
			w.problems = append(w.problems, fmt.Sprintf("%s: field %s has no json tag", describe(path), f.Name))
			continue
		}
		name, options, _ := strings.Cut(tag, ",")
		switch {
		case name == "-":
			continue
		case name == "" && hasOption(options, "inline"):
			w.properties(path, f.Type, s)
			continue
		case name == "":
			w.problems = append(w.problems, fmt.Sprintf("%s: field %s has no json name", describe(path), f.Name))
			continue
		}
		if s.Properties == nil {
			s.Properties = map[string]apiextensionsv1.JSONSchemaProps{}
		}
		s.Properties[name] = *w.schema(join(path, name), f.Type)
		if !hasOption(options, "omitempty") && !hasOption(options, "omitzero") {
			s.Required = append(s.Required, name)
		}
	}
}

func (w *walker) apply(path string, s *apiextensionsv1.JSONSchemaProps) {
	f, ok := w.fields[path]
	if !ok {
		return
	}
	w.used[path] = true
	misfit := func(what, want string) {
		w.problems = append(w.problems, fmt.Sprintf("%s: %s applies to %s, not %s", describe(path), what, want, s.Type))
	}
	s.Description = f.Description
	if f.MaxLength != nil || f.Pattern != "" || f.Enum != nil || f.Format != "" {
		if s.Type != "string" {
			misfit("maxLength, pattern, enum and format", "a string")
		}
		s.MaxLength, s.Pattern = f.MaxLength, f.Pattern
		if f.Format != "" {
			s.Format = f.Format
		}
		for _, v := range f.Enum {
			raw, err := json.Marshal(v)
			if err != nil {
				w.problems = append(w.problems, fmt.Sprintf("%s: enum value %q: %v", describe(path), v, err))
				continue
			}
			s.Enum = append(s.Enum, apiextensionsv1.JSON{Raw: raw})
		}
	}
	if f.Minimum != nil {
		if s.Type != "integer" {
			misfit("minimum", "an integer")
		}
		s.Minimum = f.Minimum
	}
	if f.MaxItems != nil || f.MapKeys != nil {
		if s.Type != "array" {
			misfit("maxItems and mapKeys", "a list")
		}
		s.MaxItems = f.MaxItems
		if f.MapKeys != nil {
			listType := "map"
			s.XListType, s.XListMapKeys = &listType, f.MapKeys
		}
	}
	s.XValidations = append(s.XValidations, f.Rules...)
	if f.Refused != nil && s.Type != "object" {
		misfit("refused properties", "an object")
	}
	for _, r := range f.Refused {
		if _, taken := s.Properties[r.Name]; taken {
			w.problems = append(w.problems, fmt.Sprintf("%s: %s is a field of the type; it cannot also be refused", describe(path), r.Name))
			continue
		}
		if r.Type == nil || r.Why == "" {
			w.problems = append(w.problems, fmt.Sprintf("%s: refused %s needs a Type and a Why", describe(path), r.Name))
			continue
		}
		declared := w.schema(join(path, r.Name), r.Type)
		declared.Description = refusedDescription
		if s.Properties == nil {
			s.Properties = map[string]apiextensionsv1.JSONSchemaProps{}
		}
		s.Properties[r.Name] = *declared
		reason := apiextensionsv1.FieldValueForbidden
		s.XValidations = append(s.XValidations, apiextensionsv1.ValidationRule{
			Rule:      "!has(self." + r.Name + ")",
			Message:   "cannot be set; " + r.Why,
			FieldPath: "." + r.Name,
			Reason:    &reason,
		})
	}
}

func hasOption(options, want string) bool {
	for _, o := range strings.Split(options, ",") {
		if o == want {
			return true
		}
	}
	return false
}

func join(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

// typeName names generic type arguments by package name (operator.Resource[coredns.Spec]).
func typeName(t reflect.Type) string {
	var b strings.Builder
	token := 0
	name := t.String()
	for i := 0; i <= len(name); i++ {
		if i < len(name) && !strings.ContainsRune("[], ", rune(name[i])) {
			continue
		}
		word := name[token:i]
		b.WriteString(word[strings.LastIndex(word, "/")+1:])
		if i < len(name) {
			b.WriteByte(name[i])
		}
		token = i + 1
	}
	return b.String()
}

func describe(path string) string {
	if path == "" {
		return "(the object)"
	}
	return path
}
