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

func TestActiveNeedsRequirements(t *testing.T) {
	cases := []struct {
		env        string
		operators  bool
		addons     bool
		unmetCount int
	}{
		{"", false, false, 0},
		{"UseAddonOperators", false, false, 1},
		{"UseOperators", false, false, 1},
		{"ClusterAddons", false, true, 0},
		{"ClusterAddons,UseAddonOperators", true, true, 0},
		{"ClusterAddons,UseOperators", true, true, 0},
		{"ClusterAddons,UseAddonOperators,-ClusterAddons", false, false, 1},
	}
	for _, tc := range cases {
		t.Run(tc.env, func(t *testing.T) {
			s, _ := Parse(tc.env)
			assert.Equal(t, tc.operators, s.Active(UseAddonOperators))
			assert.Equal(t, tc.operators, s.Active(UseOperators), "an alias is as active as its flag")
			assert.Equal(t, tc.addons, s.Active(ClusterAddons))
			assert.Len(t, s.Unmet(), tc.unmetCount)
		})
	}
	assert.False(t, Set{}.Active("Nope"))
}

func TestUnmetMessage(t *testing.T) {
	s, _ := Parse("UseOperators")
	unmet := s.Unmet()
	require.Len(t, unmet, 1)
	assert.Equal(t, "UseAddonOperators needs ClusterAddons too; CoreDNS stays built in. Set KOPS_FEATURE_FLAGS=ClusterAddons,UseAddonOperators", unmet[0].Message())
}

// Every requirement names a known flag, and no flag requires itself through others.
func TestRequirementsAreKnownAndAcyclic(t *testing.T) {
	for _, d := range Known() {
		for _, r := range d.Requires {
			_, _, ok := lookup(r)
			assert.True(t, ok, "%s requires unknown flag %s", d.Name, r)
		}
		all := map[Name]bool{}
		for _, k := range Known() {
			all[k.Name] = true
		}
		set, err := NewSet(all)
		require.NoError(t, err)
		assert.True(t, set.Active(d.Name), "%s cannot be active with every flag on: a cycle?", d.Name)
		if len(d.Requires) > 0 {
			assert.NotEmpty(t, d.WithoutRequirements, "%s: the warning must say what happens without its requirements", d.Name)
		}
	}
}
