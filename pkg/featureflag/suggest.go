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

package featureflag

import (
	"fmt"
	"strings"
	"unicode/utf8"

	textsuggest "k8s.io/kops/util/pkg/suggest"
)

func unknownText(name Name) string {
	prefix := fmt.Sprintf("unknown feature flag %q in KOPS_FEATURE_FLAGS", name)
	target, ok := suggest(name, definitions)
	if !ok {
		known := make([]string, len(definitions))
		for i, d := range definitions {
			known[i] = string(d.Name)
		}
		return fmt.Sprintf("%s; known flags are: %s", prefix, strings.Join(known, ", "))
	}
	text := fmt.Sprintf("%s; did you mean %q?", prefix, target)
	if strings.EqualFold(string(name), string(target)) {
		text += " (flag names are case-sensitive)"
	}
	return text
}

// suggest returns the nearest flag by case-insensitive edit distance, or false when it needs more
// edits than half the longer name. Ties go to the earlier table entry.
func suggest(name Name, defs []Definition) (Name, bool) {
	in := strings.ToLower(string(name))
	best, bestDist := Name(""), -1
	for _, d := range defs {
		for _, cand := range append([]Name{d.Name}, d.Aliases...) {
			c := strings.ToLower(string(cand))
			dist := textsuggest.Distance(in, c)
			if dist*2 > max(utf8.RuneCountInString(in), utf8.RuneCountInString(c)) {
				continue
			}
			if bestDist < 0 || dist < bestDist {
				best, bestDist = d.Name, dist
			}
		}
	}
	return best, bestDist >= 0
}
