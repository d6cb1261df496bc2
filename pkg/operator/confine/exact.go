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

// The exact policy compares each object whole with a literal built from kops's rendering. Its only
// holes are params (instruction fields such as the image, named as params.spec.image so the
// operator may write only what kops wrote into the instructions) and free keys others own, each
// bounded by its own check. kops finds where params flow by rendering twice, once with every
// param replaced by a marker.

// Param is a field of the operator's instructions that may flow into the objects it writes.
type Param struct {
	// Field is the path below the instructions object as CEL reads it: "spec.image".
	Field string
	// Marker is a value of Value's form that appears nowhere else in the rendering.
	Value, Marker string
}

func (p Param) expr() string { return "params." + p.Field }

// celLiteral returns a CEL expression equal to v, with leaves that hold a marker in m bound to
// their param. It errors if v and m differ anywhere else.
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

// scalar writes whole numbers as ints, as the API server presents integer fields.
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

// equalMap holds when obj equals the literal lit, except for the free keys.
func equalMap(obj, lit string, free []string) string {
	if len(free) == 0 {
		return "dyn(" + obj + ") == " + lit
	}
	return "dyn(" + obj + ").all(k, k in " + celStrings(free) + " || (k in " + lit + " && dyn(" + obj + ")[k] == " + lit + "[k])) && " +
		lit + ".all(k, k in dyn(" + obj + "))"
}
