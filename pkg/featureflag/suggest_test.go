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
