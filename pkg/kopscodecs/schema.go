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
	"encoding/json"
	"fmt"
	"reflect"
	"sort"

	"go.yaml.in/yaml/v3"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"k8s.io/kops/pkg/apis/kops"
	"k8s.io/kops/util/pkg/suggest"
	"k8s.io/kops/util/pkg/yamlshape"
)

// kopsTypesPackage holds the types whose unknown fields are kept (kops has many); unknown fields in
// Kubernetes types are mistakes and rejected.
var kopsTypesPackage = reflect.TypeOf(kops.Cluster{}).PkgPath()

var jsonUnmarshaler = reflect.TypeOf((*json.Unmarshaler)(nil)).Elem()

// checker walks YAML alongside its Go type before decoding, collecting type errors, unmodeled
// fields and the line of every path.
type checker struct {
	errs      field.ErrorList
	lines     map[string]int
	unmodeled kops.Unmodeled
}

type location struct {
	errPath *field.Path
	docPath kops.FieldPath
}

func (c *checker) check(n *yaml.Node, t reflect.Type, at location) {
	if n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	if _, seen := c.lines[at.errPath.String()]; !seen && at.errPath != nil {
		c.lines[at.errPath.String()] = n.Line
	}
	if isNull(n) {
		return
	}
	if reflect.PointerTo(t).Implements(jsonUnmarshaler) {
		c.checkUnmarshaler(n, t, at)
		return
	}
	switch t.Kind() {
	case reflect.Pointer:
		c.check(n, t.Elem(), at)
	case reflect.Struct:
		c.checkStruct(n, t, at)
	case reflect.Slice:
		if !c.expectKind(n, yaml.SequenceNode, "a list", at) {
			return
		}
		for i, item := range n.Content {
			c.check(item, t.Elem(), location{at.errPath.Index(i), at.docPath.At(i)})
		}
	case reflect.Map:
		if !c.expectKind(n, yaml.MappingNode, "a map", at) {
			return
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			key := n.Content[i].Value
			child := location{at.errPath.Key(key), at.docPath.Child(key)}
			c.lines[child.errPath.String()] = n.Content[i].Line
			c.check(n.Content[i+1], t.Elem(), child)
		}
	case reflect.String:
		c.expectScalar(n, "!!str", "a string", at)
	case reflect.Bool:
		c.expectScalar(n, "!!bool", "true or false", at)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if c.expectScalar(n, "!!int", "an integer", at) {
			var v int64
			if err := n.Decode(&v); err != nil || reflect.Zero(t).OverflowInt(v) {
				c.errs = append(c.errs, field.Invalid(at.errPath, n.Value, fmt.Sprintf("out of range for a %d-bit integer", t.Bits())))
			}
		}
	case reflect.Float32, reflect.Float64:
		if n.ShortTag() != "!!int" {
			c.expectScalar(n, "!!float", "a number", at)
		}
	case reflect.Interface:
	default:
		c.errs = append(c.errs, field.InternalError(at.errPath, fmt.Errorf("no decoder for Go type %s", t)))
	}
}

func (c *checker) checkStruct(n *yaml.Node, t reflect.Type, at location) {
	if !c.expectKind(n, yaml.MappingNode, "an object", at) {
		return
	}
	fields := yamlshape.JSONFields(t)
	for i := 0; i+1 < len(n.Content); i += 2 {
		keyNode, value := n.Content[i], n.Content[i+1]
		key := keyNode.Value
		child := location{at.errPath.Child(key), at.docPath.Child(key)}
		c.lines[child.errPath.String()] = keyNode.Line
		if f, ok := fields[key]; ok {
			c.check(value, f, child)
			continue
		}
		c.unknownField(t, key, value, fields, child)
	}
}

// unknownField sorts an unknown key into a typo (error with suggestion), a Kubernetes type's field
// (error), or an unmodeled kops field (kept).
func (c *checker) unknownField(t reflect.Type, key string, value *yaml.Node, fields map[string]reflect.Type, at location) {
	names := make([]string, 0, len(fields))
	for name := range fields {
		names = append(names, name)
	}
	sort.Strings(names)
	isKopsType := t.PkgPath() == kopsTypesPackage
	if !isKopsType || !knownKopsField(t, key) {
		if best, d, ok := suggest.Nearest(key, names); ok && suggest.Close(key, d) {
			c.errs = append(c.errs, field.Invalid(at.errPath, key, fmt.Sprintf("unknown field; did you mean %q?", best)))
			return
		}
	}
	if !isKopsType {
		c.errs = append(c.errs, field.NotSupported(at.errPath, key, names))
		return
	}
	var v interface{}
	if err := value.Decode(&v); err != nil {
		c.errs = append(c.errs, field.Invalid(at.errPath, key, err.Error()))
		return
	}
	c.unmodeled = append(c.unmodeled, kops.UnmodeledField{Path: at.docPath, Value: normalize(v)})
}

func (c *checker) checkUnmarshaler(n *yaml.Node, t reflect.Type, at location) {
	var v interface{}
	if err := n.Decode(&v); err != nil {
		c.errs = append(c.errs, field.Invalid(at.errPath, n.Value, err.Error()))
		return
	}
	b, err := json.Marshal(normalize(v))
	if err == nil {
		err = reflect.New(t).Interface().(json.Unmarshaler).UnmarshalJSON(b)
	}
	if err != nil {
		c.errs = append(c.errs, field.Invalid(at.errPath, v, err.Error()))
	}
}

func (c *checker) expectKind(n *yaml.Node, kind yaml.Kind, what string, at location) bool {
	if n.Kind == kind {
		return true
	}
	c.errs = append(c.errs, field.TypeInvalid(at.errPath, describe(n), "must be "+what))
	return false
}

func (c *checker) expectScalar(n *yaml.Node, tag, what string, at location) bool {
	if n.Kind == yaml.ScalarNode && n.ShortTag() == tag {
		return true
	}
	msg := "must be " + what
	if tag == "!!str" && n.Kind == yaml.ScalarNode {
		msg += "; put the value in quotes"
	}
	c.errs = append(c.errs, field.TypeInvalid(at.errPath, describe(n), msg))
	return false
}

func isNull(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null"
}

func describe(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "an object"
	case yaml.SequenceNode:
		return "a list"
	default:
		return n.Value
	}
}

// normalize renders non-string map keys as strings so JSON can encode the value.
func normalize(v interface{}) interface{} {
	switch x := v.(type) {
	case map[string]interface{}:
		for k, e := range x {
			x[k] = normalize(e)
		}
		return x
	case map[interface{}]interface{}:
		out := make(map[string]interface{}, len(x))
		for k, e := range x {
			out[fmt.Sprint(k)] = normalize(e)
		}
		return out
	case []interface{}:
		for i, e := range x {
			x[i] = normalize(e)
		}
		return x
	default:
		return v
	}
}
