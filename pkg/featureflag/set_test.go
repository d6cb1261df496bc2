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
	"github.com/stretchr/testify/require"
)

func TestDescribe(t *testing.T) {
	tests := []struct {
		name    string
		value   string
		sources []string // per flag, in table order
		values  []bool
	}{
		{"all defaults", "", []string{"default", "default"}, []bool{false, false}},
		{"set by canonical name", "ClusterAddons", []string{"env", "default"}, []bool{true, false}},
		{"explicitly off is still env", "-ClusterAddons", []string{"env", "default"}, []bool{false, false}},
		{"set by alias", "UseOperators", []string{"default", "env (alias UseOperators)"}, []bool{false, true}},
		{"canonical overrides alias source", "UseOperators,UseAddonOperators", []string{"default", "env"}, []bool{false, true}},
		{"unknown leaves defaults", "Bogus", []string{"default", "default"}, []bool{false, false}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			set, _ := Parse(tc.value)
			got := set.Describe()
			require.Len(t, got, len(definitions))
			for i, st := range got {
				d := definitions[i]
				assert.Equal(t, d.Name, st.Name, "table order")
				assert.Equal(t, d.Default, st.Default)
				assert.Equal(t, d.Description, st.Description)
				assert.Equal(t, tc.values[i], st.Value, "value of %s", st.Name)
				assert.Equal(t, tc.sources[i], st.Source, "source of %s", st.Name)
			}
		})
	}
}

func TestZeroSetIsDefaults(t *testing.T) {
	var zero Set
	for _, d := range definitions {
		assert.Equal(t, d.Default, zero.Enabled(d.Name), "flag %s", d.Name)
	}
	parsed, _ := Parse("")
	assert.Equal(t, parsed.Describe(), zero.Describe())
}

func TestNewSet(t *testing.T) {
	set, err := NewSet(map[Name]bool{ClusterAddons: true, UseOperators: true})
	require.NoError(t, err)
	assert.True(t, set.Enabled(ClusterAddons))
	assert.True(t, set.Enabled(UseAddonOperators))
	assert.Equal(t, "env (alias UseOperators)", set.Describe()[1].Source)

	_, err = NewSet(map[Name]bool{"Bogus": true})
	assert.EqualError(t, err, `unknown feature flag "Bogus"`)
}

func TestNewSetCopiesInput(t *testing.T) {
	in := map[Name]bool{ClusterAddons: true}
	set, err := NewSet(in)
	require.NoError(t, err)
	in[ClusterAddons] = false
	assert.True(t, set.Enabled(ClusterAddons), "later changes to the map must not leak into the Set")
}

func TestEnabledUnknownIsOff(t *testing.T) {
	set, _ := Parse("Bogus")
	assert.False(t, set.Enabled("Bogus"))
}

func TestDefinitionsTable(t *testing.T) {
	seen := map[Name]bool{}
	for _, d := range definitions {
		assert.NotEmpty(t, d.Description, "flag %s needs a description", d.Name)
		for _, n := range append([]Name{d.Name}, d.Aliases...) {
			assert.False(t, seen[n], "name %s used twice", n)
			seen[n] = true
		}
	}
	for _, n := range []Name{ClusterAddons, UseAddonOperators, UseOperators} {
		assert.True(t, seen[n], "constant %s missing from the table", n)
	}
}

func TestKnownReturnsCopy(t *testing.T) {
	known := Known()
	require.Len(t, known, len(definitions))
	known[0].Name = "Changed"
	known[1].Aliases[0] = "Changed"
	assert.Equal(t, ClusterAddons, definitions[0].Name)
	assert.Equal(t, UseOperators, definitions[1].Aliases[0])
}
