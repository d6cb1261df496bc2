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

package suggest

import "strings"

// Distance is the case-insensitive optimal-string-alignment edit distance (swaps of neighbours cost one).
func Distance(a, b string) int {
	x, y := []rune(strings.ToLower(a)), []rune(strings.ToLower(b))
	prev2 := make([]int, len(y)+1)
	prev := make([]int, len(y)+1)
	cur := make([]int, len(y)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(x); i++ {
		cur[0] = i
		for j := 1; j <= len(y); j++ {
			cost := 1
			if x[i-1] == y[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && x[i-1] == y[j-2] && x[i-2] == y[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(y)]
}

// Nearest returns the closest candidate and its distance; ties go to the earlier one; ok is false
// without candidates.
func Nearest(name string, candidates []string) (best string, distance int, ok bool) {
	for _, c := range candidates {
		d := Distance(name, c)
		if !ok || d < distance {
			best, distance, ok = c, d, true
		}
	}
	return best, distance, ok
}

// Close says whether a name at distance is plausibly a typo: longer names may carry more slips, and a
// case-only difference always counts.
func Close(name string, distance int) bool {
	switch n := len([]rune(name)); {
	case distance == 0:
		return true
	case n >= 8:
		return distance <= 2
	case n >= 4:
		return distance <= 1
	default:
		return false
	}
}
