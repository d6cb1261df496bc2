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

func TestParse(t *testing.T) {
	aliasNotice := Message{Notice, `feature flag "UseOperators" is an alias of "UseAddonOperators"`}
	tests := []struct {
		name  string
		value string
		want  map[Name]bool // every known flag's expected value
		msgs  []Message
	}{
		{"empty string", "", map[Name]bool{ClusterAddons: false, UseAddonOperators: false}, nil},
		{"only separators and spaces", " , ,, ", map[Name]bool{ClusterAddons: false, UseAddonOperators: false}, nil},
		{"bare name turns on", "ClusterAddons", map[Name]bool{ClusterAddons: true, UseAddonOperators: false}, nil},
		{"plus turns on", "+UseAddonOperators", map[Name]bool{ClusterAddons: false, UseAddonOperators: true}, nil},
		{"minus turns off", "+ClusterAddons,-ClusterAddons", map[Name]bool{ClusterAddons: false, UseAddonOperators: false}, nil},
		{"several flags", "ClusterAddons,+UseAddonOperators", map[Name]bool{ClusterAddons: true, UseAddonOperators: true}, nil},
		{"whitespace trimmed around items and names", " \t+ ClusterAddons , UseAddonOperators\n", map[Name]bool{ClusterAddons: true, UseAddonOperators: true}, nil},
		{"last mention wins", "-ClusterAddons,ClusterAddons", map[Name]bool{ClusterAddons: true, UseAddonOperators: false}, nil},
		{"canonical after alias wins", "UseOperators,-UseAddonOperators", map[Name]bool{ClusterAddons: false, UseAddonOperators: false}, []Message{aliasNotice}},
		{"alias after canonical wins", "-UseAddonOperators,+UseOperators", map[Name]bool{ClusterAddons: false, UseAddonOperators: true}, []Message{aliasNotice}},
		{"alias notice reported once", "UseOperators,-UseOperators", map[Name]bool{ClusterAddons: false, UseAddonOperators: false}, []Message{aliasNotice}},
		{
			"typo suggests nearest flag", "UseAddonOperatorz",
			map[Name]bool{ClusterAddons: false, UseAddonOperators: false},
			[]Message{{Warning, `unknown feature flag "UseAddonOperatorz" in KOPS_FEATURE_FLAGS; did you mean "UseAddonOperators"?`}},
		},
		{
			"names are case-sensitive", "clusteraddons",
			map[Name]bool{ClusterAddons: false, UseAddonOperators: false},
			[]Message{{Warning, `unknown feature flag "clusteraddons" in KOPS_FEATURE_FLAGS; did you mean "ClusterAddons"? (flag names are case-sensitive)`}},
		},
		{
			"aliases are case-sensitive too", "useoperators",
			map[Name]bool{ClusterAddons: false, UseAddonOperators: false},
			[]Message{{Warning, `unknown feature flag "useoperators" in KOPS_FEATURE_FLAGS; did you mean "UseAddonOperators"?`}},
		},
		{
			"nothing near lists known flags", "+Bogus",
			map[Name]bool{ClusterAddons: false, UseAddonOperators: false},
			[]Message{{Warning, `unknown feature flag "Bogus" in KOPS_FEATURE_FLAGS; known flags are: ClusterAddons, UseAddonOperators`}},
		},
		{
			"unknown does not disturb known", "ClusterAddons,Bogus",
			map[Name]bool{ClusterAddons: true, UseAddonOperators: false},
			[]Message{{Warning, `unknown feature flag "Bogus" in KOPS_FEATURE_FLAGS; known flags are: ClusterAddons, UseAddonOperators`}},
		},
		{
			"sign without name", "ClusterAddons, - ",
			map[Name]bool{ClusterAddons: true, UseAddonOperators: false},
			[]Message{{Warning, `missing feature flag name after "-" in KOPS_FEATURE_FLAGS`}},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			set, msgs := Parse(tc.value)
			require.Len(t, tc.want, len(definitions), "test case must list every known flag")
			for name, want := range tc.want {
				assert.Equal(t, want, set.Enabled(name), "flag %s", name)
			}
			assert.Equal(t, tc.msgs, msgs)
		})
	}
}

func TestParseAliasReadsLikeCanonical(t *testing.T) {
	set, _ := Parse("UseOperators")
	assert.True(t, set.Enabled(UseAddonOperators))
	assert.True(t, set.Enabled(UseOperators), "Enabled accepts the alias too")
}

func TestMessageString(t *testing.T) {
	assert.Equal(t, "I: hello", Message{Notice, "hello"}.String())
	assert.Equal(t, "W: hello", Message{Warning, "hello"}.String())
	assert.Equal(t, "notice", Notice.String())
	assert.Equal(t, "warning", Warning.String())
}
