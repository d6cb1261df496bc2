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

package terraform

import (
	"fmt"
	"reflect"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2/hclwrite"
	"github.com/zclconf/go-cty/cty"
)

// item is an attribute or nested block; items are sorted by name as kops writes kubernetes.tf, so the
// output depends only on the values.
type item struct {
	name  string
	expr  hclwrite.Tokens
	block *[]item
}

var literalType = reflect.TypeFor[*Literal]()

// encodeBody returns a body struct's sorted items, appending every *Literal met to refs.
func encodeBody(v reflect.Value, where string, refs *[]*Literal) ([]item, error) {
	if v.Kind() == reflect.Pointer {
		if v.IsNil() {
			return nil, fmt.Errorf("%s: body is a nil pointer", where)
		}
		v = v.Elem()
	}
	if v.Kind() != reflect.Struct {
		return nil, fmt.Errorf("%s: body must be a struct or a pointer to one, not %s", where, v.Type())
	}
	var items []item
	seen := map[string]string{}
	for i := range v.NumField() {
		field := v.Type().Field(i)
		if !field.IsExported() {
			continue
		}
		name, ok := field.Tag.Lookup("cty")
		if name == "-" {
			continue
		}
		fieldWhere := where + "." + field.Name
		if !ok || !validName(name) {
			return nil, fmt.Errorf("%s: needs a `cty:\"name\"` tag with a valid HCL name (or `cty:\"-\"` to leave it out), got %q", fieldWhere, name)
		}
		if other, dup := seen[name]; dup {
			return nil, fmt.Errorf("%s: cty name %q is also used by %s", fieldWhere, name, other)
		}
		seen[name] = field.Name
		encoded, err := encodeField(v.Field(i), name, fieldWhere, refs)
		if err != nil {
			return nil, err
		}
		items = append(items, encoded...)
	}
	// Stable: the blocks of one repeated field keep their slice order.
	sort.SliceStable(items, func(a, b int) bool { return items[a].name < items[b].name })
	return items, nil
}

func encodeField(f reflect.Value, name, where string, refs *[]*Literal) ([]item, error) {
	if f.Type() == literalType {
		if f.IsNil() {
			return nil, nil
		}
		l := f.Interface().(*Literal)
		*refs = append(*refs, l)
		return []item{{name: name, expr: l.tokens}}, nil
	}
	switch f.Kind() {
	case reflect.Pointer:
		if f.IsNil() {
			return nil, nil
		}
		return encodeField(f.Elem(), name, where, refs)
	case reflect.Struct:
		body, err := encodeBody(f, where, refs)
		if err != nil {
			return nil, err
		}
		return []item{{name: name, block: &body}}, nil
	case reflect.Slice:
		if f.IsNil() {
			return nil, nil
		}
		if isBlockType(f.Type().Elem()) {
			blocks := make([]item, 0, f.Len())
			for i := range f.Len() {
				if f.Index(i).Kind() == reflect.Pointer && f.Index(i).IsNil() {
					return nil, fmt.Errorf("%s[%d]: nil block", where, i)
				}
				body, err := encodeBody(f.Index(i), fmt.Sprintf("%s[%d]", where, i), refs)
				if err != nil {
					return nil, err
				}
				blocks = append(blocks, item{name: name, block: &body})
			}
			return blocks, nil
		}
		elems := make([]hclwrite.Tokens, 0, f.Len())
		for i := range f.Len() {
			tokens, err := encodeScalar(f.Index(i), fmt.Sprintf("%s[%d]", where, i), refs)
			if err != nil {
				return nil, err
			}
			elems = append(elems, tokens)
		}
		return []item{{name: name, expr: hclwrite.TokensForTuple(elems)}}, nil
	case reflect.Map:
		if f.IsNil() {
			return nil, nil
		}
		if f.Type().Key().Kind() != reflect.String || f.Type().Elem().Kind() != reflect.String {
			return nil, fmt.Errorf("%s: maps must be map[string]string, not %s", where, f.Type())
		}
		m := make(map[string]string, f.Len())
		for it := f.MapRange(); it.Next(); {
			m[it.Key().String()] = it.Value().String()
		}
		return []item{{name: name, expr: mapExpr(m)}}, nil
	case reflect.String:
		if f.String() == "" {
			return nil, nil
		}
	}
	tokens, err := encodeScalar(f, where, refs)
	if err != nil {
		return nil, err
	}
	return []item{{name: name, expr: tokens}}, nil
}

func encodeScalar(v reflect.Value, where string, refs *[]*Literal) (hclwrite.Tokens, error) {
	if v.Type() == literalType {
		if v.IsNil() {
			return nil, fmt.Errorf("%s: nil literal in a list", where)
		}
		l := v.Interface().(*Literal)
		*refs = append(*refs, l)
		// A copy: TokensForTuple lays out the elements it is given in place.
		return cloneTokens(l.tokens), nil
	}
	switch v.Kind() {
	case reflect.String:
		return stringExpr(v.String()), nil
	case reflect.Bool:
		return hclwrite.TokensForValue(cty.BoolVal(v.Bool())), nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return hclwrite.TokensForValue(cty.NumberIntVal(v.Int())), nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return hclwrite.TokensForValue(cty.NumberUIntVal(v.Uint())), nil
	case reflect.Float32, reflect.Float64:
		t, err := floatExpr(v.Float())
		if err != nil {
			return nil, fmt.Errorf("%s: %w", where, err)
		}
		return t, nil
	}
	return nil, fmt.Errorf("%s: type %s cannot be written to terraform", where, v.Type())
}

func isBlockType(t reflect.Type) bool {
	if t == literalType {
		return false
	}
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t.Kind() == reflect.Struct
}

func writeItems(body *hclwrite.Body, items []item) {
	for _, it := range items {
		if it.block == nil {
			body.SetAttributeRaw(it.name, cloneTokens(it.expr))
			continue
		}
		writeItems(body.AppendNewBlock(it.name, nil).Body(), *it.block)
	}
}

// validName accepts the ASCII subset of HCL identifiers, without running the lexer as
// hclsyntax.ValidIdentifier does.
func validName(s string) bool {
	return s != "" && nameEnd(s, 0) == len(s)
}

func nameEnd(s string, i int) int {
	j := i
	for ; j < len(s); j++ {
		c := s[j]
		letter := 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '_'
		if !letter && (j == i || !('0' <= c && c <= '9' || c == '-')) {
			break
		}
	}
	return j
}

func labelsValid(resourceType, resourceName string) error {
	var problems []string
	for what, s := range map[string]string{"resource type": resourceType, "resource name": resourceName} {
		if !validName(s) {
			problems = append(problems, fmt.Sprintf("%s %q is not a valid terraform name (letters, digits, '-', '_'; not starting with a digit)", what, s))
		}
	}
	sort.Strings(problems)
	if len(problems) > 0 {
		return fmt.Errorf("%s", strings.Join(problems, "; "))
	}
	return nil
}
