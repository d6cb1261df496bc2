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
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"sync"
)

const maxDifferences = 20

// Differences lists every way got differs from want, with field paths. Both are decoded YAML or
// JSON; numbers compare by value, whatever their Go type.
func Differences(want, got interface{}) []string {
	var out []string
	diff("", normalize(want), normalize(got), &out)
	return out
}

func differencesError(kind string, differences []string) error {
	if len(differences) == 0 {
		return nil
	}
	more := ""
	if len(differences) > maxDifferences {
		more = fmt.Sprintf("; and %d more", len(differences)-maxDifferences)
		differences = differences[:maxDifferences]
	}
	return fmt.Errorf("differs from the %s kops renders (kops renders it itself: remove it from the package, or make it exactly kops's): %s%s",
		kind, strings.Join(differences, "; "), more)
}

// normalize round-trips v through JSON so int64 and float64 compare alike; a value JSON cannot
// hold is returned as is.
func normalize(v interface{}) interface{} {
	data, err := json.Marshal(v)
	if err != nil {
		return v
	}
	var out interface{}
	if err := json.Unmarshal(data, &out); err != nil {
		return v
	}
	return out
}

func diff(path string, want, got interface{}, out *[]string) {
	switch w := want.(type) {
	case map[string]interface{}:
		g, ok := got.(map[string]interface{})
		if !ok {
			*out = append(*out, fmt.Sprintf("%s: %s, kops's is an object", where(path), shown(got)))
			return
		}
		keys := map[string]bool{}
		for k := range w {
			keys[k] = true
		}
		for k := range g {
			keys[k] = true
		}
		for _, k := range slices.Sorted(maps.Keys(keys)) {
			wv, inWant := w[k]
			gv, inGot := g[k]
			switch {
			case !inWant:
				added(key(path, k), gv, out)
			case !inGot:
				*out = append(*out, fmt.Sprintf("%s: missing (kops's is %s)", key(path, k), shown(wv)))
			default:
				diff(key(path, k), wv, gv, out)
			}
		}
	case []interface{}:
		g, ok := got.([]interface{})
		if !ok {
			*out = append(*out, fmt.Sprintf("%s: %s, kops's is a list", where(path), shown(got)))
			return
		}
		for i := 0; i < len(w) || i < len(g); i++ {
			item := fmt.Sprintf("%s[%d]", path, i)
			switch {
			case i >= len(w):
				added(item, g[i], out)
			case i >= len(g):
				*out = append(*out, fmt.Sprintf("%s: missing (kops's is %s)", item, shown(w[i])))
			default:
				diff(item, w[i], g[i], out)
			}
		}
	default:
		if !reflect.DeepEqual(want, got) {
			*out = append(*out, fmt.Sprintf("%s: %s, kops's is %s", where(path), shown(got), shown(want)))
		}
	}
}

// added reports every leaf of v, so an added schema version shows its
// x-kubernetes-preserve-unknown-fields.
func added(path string, v interface{}, out *[]string) {
	switch a := v.(type) {
	case map[string]interface{}:
		if len(a) > 0 {
			for _, k := range slices.Sorted(maps.Keys(a)) {
				added(key(path, k), a[k], out)
			}
			return
		}
	case []interface{}:
		if len(a) > 0 {
			for i, e := range a {
				added(fmt.Sprintf("%s[%d]", path, i), e, out)
			}
			return
		}
	}
	*out = append(*out, fmt.Sprintf("%s: %s is not in kops's", where(path), shown(v)))
}

var plainKey = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9_-]+$`) })

func key(path, k string) string {
	if !plainKey().MatchString(k) {
		return path + "[" + k + "]"
	}
	return join(path, k)
}

func where(path string) string {
	if path == "" {
		return "(the object)"
	}
	return path
}

func shown(v interface{}) string {
	data, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	const max = 120
	if s := string(data); len(s) > max {
		return s[:max] + "..."
	}
	return string(data)
}
