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

package confine

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// The admission policy admits exactly the objects kops renders. An object is compared whole with a
// literal built from the rendering; the only values the literal does not fix are its holes:
//   - params: a value of the operator's instructions (its custom resource) that flows into the
//     object, such as the image. The literal names it (params.spec.image), so the operator may write
//     what kops wrote into the instructions, and nothing else.
//   - free keys: a value someone else owns by design (a Deployment's replicas, which the
//     autoscaler sets), each bounded by its own check.
// Where params flow is found by construction: kops renders the objects twice, once from the
// instructions it writes and once with every param replaced by a marker; a leaf that differs
// between the two must be a marker in the second and the param's value in the first, or the
// literal cannot be built.

// Param is a field of the operator's instructions that may flow into the objects it writes.
type Param struct {
	// Field is the field's path below the instructions object, as CEL reads it: "spec.image".
	Field string
	// Value is the field's value in the instructions kops writes; Marker is a value of the same
	// form that appears nowhere else, rendered in Value's place.
	Value, Marker string
}

// expr is CEL's name of the param in a policy bound to the instructions.
func (p Param) expr() string { return "params." + p.Field }

// celLiteral is a CEL expression equal to the rendered value v whose marked rendering is m: leaves
// equal in both are constants, leaves marked in m are their param. path names the value in errors.
func celLiteral(path string, v, m interface{}, params []Param) (string, error) {
	switch v := v.(type) {
	case map[string]interface{}:
		mm, ok := m.(map[string]interface{})
		if !ok || len(mm) != len(v) {
			return "", fmt.Errorf("%s: the rendering's shape depends on the instructions", path)
		}
		keys := slices.Sorted(maps.Keys(v))
		entries := make([]string, 0, len(keys))
		for _, k := range keys {
			mv, ok := mm[k]
			if !ok {
				return "", fmt.Errorf("%s: the rendering's keys depend on the instructions", path)
			}
			e, err := celLiteral(path+"."+k, v[k], mv, params)
			if err != nil {
				return "", err
			}
			// Every value is dyn: CEL type-checks a literal's values as one type otherwise.
			entries = append(entries, strconv.Quote(k)+": dyn("+e+")")
		}
		return "{" + strings.Join(entries, ", ") + "}", nil
	case []interface{}:
		ml, ok := m.([]interface{})
		if !ok || len(ml) != len(v) {
			return "", fmt.Errorf("%s: the rendering's shape depends on the instructions", path)
		}
		elems := make([]string, len(v))
		for i := range v {
			e, err := celLiteral(fmt.Sprintf("%s[%d]", path, i), v[i], ml[i], params)
			if err != nil {
				return "", err
			}
			elems[i] = "dyn(" + e + ")"
		}
		return "[" + strings.Join(elems, ", ") + "]", nil
	case string:
		ms, _ := m.(string)
		if ms == v {
			return strconv.Quote(v), nil
		}
		for _, p := range params {
			if ms == p.Marker && v == p.Value {
				return p.expr(), nil
			}
		}
		return "", fmt.Errorf("%s: the value depends on the instructions in a way the policy cannot bind (%q, marked %q)", path, v, ms)
	default:
		if fmt.Sprint(v) != fmt.Sprint(m) {
			return "", fmt.Errorf("%s: the value depends on the instructions in a way the policy cannot bind", path)
		}
		return scalar(v), nil
	}
}

// scalar is the CEL literal of a decoded JSON scalar. Whole numbers are ints, as the API server
// presents integer fields.
func scalar(v interface{}) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case bool:
		return strconv.FormatBool(v)
	case int64:
		return strconv.FormatInt(v, 10)
	case float64:
		if v == float64(int64(v)) {
			return strconv.FormatInt(int64(v), 10)
		}
		return strconv.FormatFloat(v, 'g', -1, 64)
	}
	panic(fmt.Sprintf("no CEL literal for %T", v)) // decoded JSON holds nothing else
}

// equalMap is a CEL expression that holds when the map obj (a CEL expression of an object or map)
// has exactly the keys of the literal map named lit, except the free keys, each with the literal's
// value: the literal compared whole, the free keys left to their own checks.
func equalMap(obj, lit string, free []string) string {
	if len(free) == 0 {
		return "dyn(" + obj + ") == " + lit
	}
	return "dyn(" + obj + ").all(k, k in " + celStrings(free) + " || (k in " + lit + " && dyn(" + obj + ")[k] == " + lit + "[k])) && " +
		lit + ".all(k, k in dyn(" + obj + "))"
}
