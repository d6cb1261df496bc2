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

package commands

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"k8s.io/kops/util/pkg/suggest"
	"k8s.io/kops/util/pkg/yamlshape"
)

// SetFields applies kops's --unset then --set edits to doc, the YAML of a document of Go type t.
// Values are typed by their field, lists are appended to, [N] and [*] pick items, and unmodeled
// fields are refused since their type is unknown. All problems are returned at once with their paths.
func SetFields(doc []byte, t reflect.Type, sets, unsets []string) ([]byte, error) {
	var root yaml.Node
	if err := yaml.Unmarshal(doc, &root); err != nil {
		return nil, err
	}
	if root.Kind != yaml.DocumentNode || len(root.Content) != 1 {
		return nil, fmt.Errorf("the document is not one YAML object")
	}
	var problems []string
	for _, u := range unsets {
		if errs := unsetPath(root.Content[0], t, u); len(errs) > 0 {
			problems = append(problems, describe("--unset "+u, errs))
		}
	}
	for _, s := range sets {
		path, value, ok := strings.Cut(s, "=")
		var errs field.ErrorList
		if !ok {
			errs = field.ErrorList{field.Invalid(nil, s, "must be FIELD=VALUE, e.g. spec.kubeDNS.provider=CoreDNS")}
		} else {
			errs = setPath(root.Content[0], t, path, value)
		}
		if len(errs) > 0 {
			problems = append(problems, describe("--set "+s, errs))
		}
	}
	if len(problems) > 0 {
		return nil, fmt.Errorf("%s", strings.Join(problems, "\n"))
	}
	return yaml.Marshal(root.Content[0])
}

func describe(flag string, errs field.ErrorList) string {
	lines := make([]string, 0, len(errs))
	for _, e := range errs {
		lines = append(lines, flag+": "+strings.TrimPrefix(e.Error(), "<nil>: "))
	}
	return strings.Join(lines, "\n")
}

type step struct {
	name     string
	index    int
	isIndex  bool
	wildcard bool
}

func parsePath(s string) ([]step, error) {
	s = strings.TrimPrefix(strings.TrimPrefix(s, "cluster."), "instancegroup.")
	if s == "" {
		return nil, fmt.Errorf("no field named")
	}
	var steps []step
	for _, part := range strings.Split(s, ".") {
		name, rest, _ := strings.Cut(part, "[")
		if !isName(name) {
			return nil, fmt.Errorf("%q is not a field name", name)
		}
		steps = append(steps, step{name: name})
		for rest != "" {
			inside, after, ok := strings.Cut(rest, "]")
			if !ok || (after != "" && !strings.HasPrefix(after, "[")) {
				return nil, fmt.Errorf("%q: an index is [N] or [*]", part)
			}
			if inside == "*" {
				steps = append(steps, step{wildcard: true})
			} else {
				n, err := strconv.Atoi(inside)
				if err != nil || n < 0 {
					return nil, fmt.Errorf("%q: an index is [N] or [*]", part)
				}
				steps = append(steps, step{index: n, isIndex: true})
			}
			rest = strings.TrimPrefix(after, "[")
		}
	}
	return steps, nil
}

func isName(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-') {
			return false
		}
	}
	return true
}

func setPath(n *yaml.Node, t reflect.Type, path, value string) field.ErrorList {
	steps, err := parsePath(path)
	if err != nil {
		return field.ErrorList{field.Invalid(nil, path, err.Error())}
	}
	return walk(n, t, steps, nil, func(n *yaml.Node, t reflect.Type, at *field.Path) field.ErrorList {
		return assign(n, t, value, at)
	}, true)
}

func unsetPath(n *yaml.Node, t reflect.Type, path string) field.ErrorList {
	steps, err := parsePath(path)
	if err != nil {
		return field.ErrorList{field.Invalid(nil, path, err.Error())}
	}
	last := steps[len(steps)-1]
	if last.isIndex || last.wildcard {
		return field.ErrorList{field.Invalid(nil, path, "--unset removes a field, not a list item; to change a list, --unset it and --set it again")}
	}
	parent := steps[:len(steps)-1]
	return walk(n, t, parent, nil, func(n *yaml.Node, t reflect.Type, at *field.Path) field.ErrorList {
		return removeField(n, t, last.name, at)
	}, false)
}

// walk calls at on the node steps lead to; with create, missing objects and the item just past a
// list's end are made, otherwise a missing one ends the walk.
func walk(n *yaml.Node, t reflect.Type, steps []step, path *field.Path, at func(*yaml.Node, reflect.Type, *field.Path) field.ErrorList, create bool) field.ErrorList {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if len(steps) == 0 {
		return at(n, t, path)
	}
	s := steps[0]
	if isNull(n) && !create {
		return nil
	}
	switch {
	case s.name != "" && t.Kind() == reflect.Struct:
		fields := yamlshape.JSONFields(t)
		ft, ok := fields[s.name]
		child := childPath(path, s.name)
		if !ok {
			return field.ErrorList{unknownField(child, s.name, fields)}
		}
		if !ensure(n, yaml.MappingNode, create) {
			return field.ErrorList{field.TypeInvalid(path, shape(n), "is not an object in the document")}
		}
		value := lookup(n, s.name)
		if value == nil {
			if !create {
				return nil
			}
			value = null()
			n.Content = append(n.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: s.name}, value)
		}
		return walk(value, ft, steps[1:], child, at, create)
	case (s.isIndex || s.wildcard) && t.Kind() == reflect.Slice:
		if !ensure(n, yaml.SequenceNode, create) {
			return field.ErrorList{field.TypeInvalid(path, shape(n), "is not a list in the document")}
		}
		if s.wildcard {
			if len(n.Content) == 0 && create {
				return field.ErrorList{field.Invalid(path.Key("*"), "", "the list is empty: [*] matches no item; use [0] to add the first")}
			}
			var errs field.ErrorList
			for i, item := range n.Content {
				errs = append(errs, walk(item, t.Elem(), steps[1:], path.Index(i), at, create)...)
			}
			return errs
		}
		switch {
		case s.index < len(n.Content):
		case s.index == len(n.Content) && create:
			n.Content = append(n.Content, null())
		case !create:
			return nil
		default:
			return field.ErrorList{field.Invalid(path.Index(s.index), s.index, fmt.Sprintf("the list has %d items: [%d] appends one", len(n.Content), len(n.Content)))}
		}
		return walk(n.Content[s.index], t.Elem(), steps[1:], path.Index(s.index), at, create)
	case s.name != "" && t.Kind() == reflect.Map:
		return field.ErrorList{field.Invalid(childPath(path, s.name), s.name, fmt.Sprintf("%s is a map: set an entry with --set %s=KEY=VALUE", path, path))}
	case s.name != "":
		return field.ErrorList{field.Invalid(childPath(path, s.name), s.name, fmt.Sprintf("%s is %s, which has no fields", path, kindOf(t)))}
	default:
		return field.ErrorList{field.Invalid(path, "[]", fmt.Sprintf("%s is %s, not a list", path, kindOf(t)))}
	}
}

func assign(n *yaml.Node, t reflect.Type, value string, at *field.Path) field.ErrorList {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if reflect.PointerTo(t).Implements(reflect.TypeOf((*json.Unmarshaler)(nil)).Elem()) {
		*n = yaml.Node{Kind: yaml.ScalarNode, Value: value}
		return nil
	}
	switch t.Kind() {
	case reflect.Struct:
		if value != "" {
			return field.ErrorList{field.Invalid(at, value, "is an object: set its fields (e.g. "+at.Child("field").String()+"=VALUE), or give no value to make it empty")}
		}
		if !ensure(n, yaml.MappingNode, true) {
			return field.ErrorList{field.TypeInvalid(at, shape(n), "is not an object in the document")}
		}
		return nil
	case reflect.Slice:
		if k := derefKind(t.Elem()); k == reflect.Struct || k == reflect.Slice || k == reflect.Map {
			return field.ErrorList{field.Invalid(at, value, "is a list whose items are each "+kindOf(t.Elem())+": set an item's fields with "+at.Index(0).String()+".FIELD=VALUE")}
		}
		if !ensure(n, yaml.SequenceNode, true) {
			return field.ErrorList{field.TypeInvalid(at, shape(n), "is not a list in the document")}
		}
		// kops appends: `--set spec.list=a,b` adds two items.
		var errs field.ErrorList
		for _, token := range strings.Split(value, ",") {
			item := null()
			errs = append(errs, assign(item, t.Elem(), token, at.Index(len(n.Content)))...)
			n.Content = append(n.Content, item)
		}
		return errs
	case reflect.Map:
		if t.Key().Kind() != reflect.String || (derefKind(t.Elem()) != reflect.String && !(derefKind(t.Elem()) == reflect.Slice && derefKind(t.Elem().Elem()) == reflect.String)) {
			return field.ErrorList{field.Invalid(at, value, "is a map of "+kindOf(t.Elem())+"s, which --set cannot write; use kops edit")}
		}
		key, entry, ok := strings.Cut(value, "=")
		if !ok || key == "" {
			return field.ErrorList{field.Invalid(at, value, "is a map: the value must be KEY=VALUE")}
		}
		if !ensure(n, yaml.MappingNode, true) {
			return field.ErrorList{field.TypeInvalid(at, shape(n), "is not a map in the document")}
		}
		node := null()
		errs := assign(node, t.Elem(), entry, at.Key(key))
		if old := lookup(n, key); old != nil {
			*old = *node
		} else {
			n.Content = append(n.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: key}, node)
		}
		return errs
	case reflect.String:
		*n = yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: value}
	case reflect.Bool:
		b, err := strconv.ParseBool(value)
		if err != nil {
			return field.ErrorList{field.Invalid(at, value, "must be true or false")}
		}
		*n = yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: strconv.FormatBool(b)}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v, err := strconv.ParseInt(value, 10, t.Bits())
		if err != nil {
			return field.ErrorList{field.Invalid(at, value, fmt.Sprintf("must be an integer of %d bits", t.Bits()))}
		}
		*n = yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: strconv.FormatInt(v, 10)}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v, err := strconv.ParseUint(value, 10, t.Bits())
		if err != nil {
			return field.ErrorList{field.Invalid(at, value, fmt.Sprintf("must be a non-negative integer of %d bits", t.Bits()))}
		}
		*n = yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: strconv.FormatUint(v, 10)}
	case reflect.Float32, reflect.Float64:
		if _, err := strconv.ParseFloat(value, t.Bits()); err != nil {
			return field.ErrorList{field.Invalid(at, value, "must be a number")}
		}
		*n = yaml.Node{Kind: yaml.ScalarNode, Tag: "!!float", Value: value}
	default:
		*n = yaml.Node{Kind: yaml.ScalarNode, Value: value}
	}
	return nil
}

// removeField may remove an unmodeled field too: its type does not matter.
func removeField(n *yaml.Node, t reflect.Type, name string, at *field.Path) field.ErrorList {
	child := childPath(at, name)
	if t.Kind() != reflect.Struct {
		return field.ErrorList{field.Invalid(child, name, fmt.Sprintf("%s is %s, which has no fields", at, kindOf(t)))}
	}
	fields := yamlshape.JSONFields(t)
	if isNull(n) {
		return nil
	}
	if n.Kind != yaml.MappingNode {
		return field.ErrorList{field.TypeInvalid(at, shape(n), "is not an object in the document")}
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == name {
			n.Content = append(n.Content[:i], n.Content[i+2:]...)
			return nil
		}
	}
	if _, ok := fields[name]; !ok {
		return field.ErrorList{unknownField(child, name, fields)}
	}
	return nil
}

func unknownField(at *field.Path, name string, fields map[string]reflect.Type) *field.Error {
	names := make([]string, 0, len(fields))
	for n := range fields {
		names = append(names, n)
	}
	sort.Strings(names)
	if best, d, ok := suggest.Nearest(name, names); ok && suggest.Close(name, d) {
		return field.Invalid(at, name, fmt.Sprintf("unknown field; did you mean %q?", best))
	}
	return field.Invalid(at, name, "not a field this build models, so --set cannot tell its type; "+
		"add it with kops edit (fields of kops this build does not model are kept as written)")
}

func ensure(n *yaml.Node, kind yaml.Kind, create bool) bool {
	if isNull(n) && create {
		*n = yaml.Node{Kind: kind}
	}
	return n.Kind == kind
}

func lookup(n *yaml.Node, key string) *yaml.Node {
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	return nil
}

func null() *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Value: "null"} }

func isNull(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null"
}

func shape(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "an object"
	case yaml.SequenceNode:
		return "a list"
	}
	return n.Value
}

func childPath(p *field.Path, name string) *field.Path {
	if p == nil {
		return field.NewPath(name)
	}
	return p.Child(name)
}

func derefKind(t reflect.Type) reflect.Kind {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t.Kind()
}

func kindOf(t reflect.Type) string {
	switch derefKind(t) {
	case reflect.Struct:
		return "an object"
	case reflect.Slice:
		return "a list"
	case reflect.Map:
		return "a map"
	case reflect.Bool:
		return "a boolean"
	case reflect.String:
		return "a string"
	}
	return "a number"
}
