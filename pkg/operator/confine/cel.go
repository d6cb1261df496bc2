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
	"sort"
	"strconv"
	"strings"
)

// Every constant in a policy is written by these helpers, quoted so that no value can change an
// expression's structure.

func celString(s string) string { return strconv.Quote(s) }

func celStrings(values []string) string {
	quoted := make([]string, len(values))
	for i, v := range values {
		quoted[i] = celString(v)
	}
	return "[" + strings.Join(quoted, ", ") + "]"
}

func celStringMap(m map[string]string) string { return celMap(m, celString) }

// celMap sorts the keys so the generated policy is byte-stable.
func celMap[V any](m map[string]V, value func(V) string) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	entries := make([]string, len(keys))
	for i, k := range keys {
		entries[i] = celString(k) + ": " + value(m[k])
	}
	return "{" + strings.Join(entries, ", ") + "}"
}

func celInt(i int64) string { return fmt.Sprint(i) }

func allOf(conditions ...string) string {
	return strings.Join(conditions, " && ")
}

func sortStrings(s []string) { sort.Strings(s) }
