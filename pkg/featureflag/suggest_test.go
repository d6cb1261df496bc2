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
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestSuggest(t *testing.T) {
	tests := []struct {
		in   Name
		want Name // "" means no suggestion
	}{
		{"UseAddonOperatorz", UseAddonOperators},
		{"clusteraddons", ClusterAddons},
		{"CLUSTERADDONS", ClusterAddons}, // case-insensitive both ways
		{"ClusterAdons", ClusterAddons},
		{"UseOperatorz", UseAddonOperators}, // near the alias: suggest the canonical name
		{"UseOps", UseAddonOperators},       // near enough only to the alias
		{"Bogus", ""},
		{"x", ""},
	}
	for _, tc := range tests {
		got, ok := suggest(tc.in, definitions)
		assert.Equal(t, tc.want != "", ok, "suggestion expected for %q", tc.in)
		assert.Equal(t, tc.want, got, "suggestion for %q", tc.in)
	}
}

func TestSuggestTieGoesToEarlierFlag(t *testing.T) {
	defs := []Definition{{Name: "Abc"}, {Name: "Abd"}}
	got, ok := suggest("Abx", defs)
	assert.True(t, ok)
	assert.Equal(t, Name("Abc"), got)

	got, _ = suggest("Abx", []Definition{{Name: "Abd"}, {Name: "Abc"}})
	assert.Equal(t, Name("Abd"), got)
}
