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

	"k8s.io/kops/util/pkg/allocbound"
)

func FuzzParse(f *testing.F) {
	for _, seed := range []string{
		"",
		"ClusterAddons",
		"+UseOperators,-UseAddonOperators",
		" , -ClusterAddons , +,- ",
		"clusteraddons,UseAddonOperatorz,Bogus",
		"\xff,+\x00",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, value string) {
		var set Set
		var msgs []Message
		allocbound.Check(t, len(value), func() { set, msgs = Parse(value) })
		for _, st := range set.Describe() {
			if st.Value != set.Enabled(st.Name) {
				t.Errorf("Describe and Enabled disagree on %s", st.Name)
			}
			if st.Source == SourceDefault && st.Value != st.Default {
				t.Errorf("%s: source default but value %v differs from default", st.Name, st.Value)
			}
		}
		// Whatever came before, a trailing mention decides the flag.
		for _, d := range definitions {
			for _, on := range []bool{true, false} {
				suffix := ",+" + string(d.Name)
				if !on {
					suffix = ",-" + string(d.Name)
				}
				if got, _ := Parse(value + suffix); got.Enabled(d.Name) != on {
					t.Errorf("Parse(%q).Enabled(%s) = %v, want %v", value+suffix, d.Name, !on, on)
				}
			}
		}
		for i, m := range msgs {
			if m.Text == "" {
				t.Errorf("message %d is empty", i)
			}
			if m.Severity != Notice && m.Severity != Warning {
				t.Errorf("message %d has unknown severity %d", i, m.Severity)
			}
		}
	})
}
