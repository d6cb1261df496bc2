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
	"strings"
)

// A shape is an allow-list for one value of a decoded YAML object, returning every problem with
// its field path. Anything unnamed is refused, so a field Kubernetes adds tomorrow is refused
// until someone allows it here.
type shape func(path string, v interface{}) []string

func fields(allowed map[string]shape, required ...string) shape {
	return func(path string, v interface{}) []string {
		m, ok := v.(map[string]interface{})
		if !ok {
			return []string{path + ": must be an object"}
		}
		var problems []string
		for _, k := range slices.Sorted(maps.Keys(m)) {
			check, ok := allowed[k]
			if !ok {
				problems = append(problems, join(path, k)+": not allowed")
				continue
			}
			problems = append(problems, check(join(path, k), m[k])...)
		}
		for _, k := range required {
			if _, ok := m[k]; !ok {
				problems = append(problems, join(path, k)+": required")
			}
		}
		return problems
	}
}

// stringMap allows a map of strings whose keys are among allowed, each with its allowed value ("" means any).
func stringMap(allowed map[string]string) shape {
	return func(path string, v interface{}) []string {
		m, ok := v.(map[string]interface{})
		if !ok {
			return []string{path + ": must be a map of strings"}
		}
		var problems []string
		for _, k := range slices.Sorted(maps.Keys(m)) {
			want, known := allowed[k]
			s, isString := m[k].(string)
			switch {
			case !known:
				problems = append(problems, path+"["+k+"]: not allowed")
			case !isString:
				problems = append(problems, path+"["+k+"]: must be a string")
			case want != "" && s != want:
				problems = append(problems, fmt.Sprintf("%s[%s]: %q is not allowed, only %q", path, k, s, want))
			}
		}
		return problems
	}
}

func anyStringMap(path string, v interface{}) []string {
	m, ok := v.(map[string]interface{})
	if !ok {
		return []string{path + ": must be a map of strings"}
	}
	for _, k := range slices.Sorted(maps.Keys(m)) {
		if _, ok := m[k].(string); !ok {
			return []string{path + "[" + k + "]: must be a string"}
		}
	}
	return nil
}

func listOf(elem shape) shape {
	return func(path string, v interface{}) []string {
		l, ok := v.([]interface{})
		if !ok {
			return []string{path + ": must be a list"}
		}
		var problems []string
		for i, e := range l {
			problems = append(problems, elem(fmt.Sprintf("%s[%d]", path, i), e)...)
		}
		return problems
	}
}

func oneOf(values ...interface{}) shape {
	return func(path string, v interface{}) []string {
		for _, want := range values {
			if sameScalar(v, want) {
				return nil
			}
		}
		return []string{fmt.Sprintf("%s: %s is not allowed, only %s", path, literal(v), literals(values))}
	}
}

func literal(v interface{}) string {
	if s, ok := v.(string); ok {
		return fmt.Sprintf("%q", s)
	}
	return fmt.Sprint(v)
}

func literals(values []interface{}) string {
	shown := make([]string, len(values))
	for i, v := range values {
		shown[i] = literal(v)
	}
	return strings.Join(shown, " or ")
}

func anyString(path string, v interface{}) []string {
	if _, ok := v.(string); !ok {
		return []string{path + ": must be a string"}
	}
	return nil
}

func anyBool(path string, v interface{}) []string {
	if _, ok := v.(bool); !ok {
		return []string{path + ": must be a boolean"}
	}
	return nil
}

func intIn(min, max int64) shape {
	return func(path string, v interface{}) []string {
		n, ok := number(v)
		if !ok || n != float64(int64(n)) || int64(n) < min || int64(n) > max {
			return []string{fmt.Sprintf("%s: must be a whole number from %d to %d", path, min, max)}
		}
		return nil
	}
}

func intOrString(path string, v interface{}) []string {
	if _, ok := v.(string); ok {
		return nil
	}
	return intIn(1, 65535)(path, v)
}

func quantity(path string, v interface{}) []string {
	if _, ok := number(v); ok {
		return nil
	}
	return anyString(path, v)
}

func containing(want ...string) shape {
	return func(path string, v interface{}) []string {
		if problems := listOf(anyString)(path, v); len(problems) > 0 {
			return problems
		}
		have := map[string]bool{}
		for _, e := range v.([]interface{}) {
			have[e.(string)] = true
		}
		for _, w := range want {
			if !have[w] {
				return []string{fmt.Sprintf("%s: must contain %q", path, w)}
			}
		}
		return nil
	}
}

func number(v interface{}) (float64, bool) {
	switch n := v.(type) {
	case int64:
		return float64(n), true
	case int:
		return float64(n), true
	case float64:
		return n, true
	}
	return 0, false
}

func sameScalar(a, b interface{}) bool {
	if x, ok := number(a); ok {
		y, ok := number(b)
		return ok && x == y
	}
	return a == b
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

func problemsError(problems []string) error {
	if len(problems) == 0 {
		return nil
	}
	return fmt.Errorf("%s", strings.Join(problems, "; "))
}
