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

import "fmt"

type setting struct {
	value bool
	via   Name
}

// Set is immutable once built; the zero Set reports every flag at its default.
type Set struct {
	explicit map[Name]setting
}

// NewSet builds a Set as if from KOPS_FEATURE_FLAGS; an unknown name is an error, so a typo cannot
// silently leave a flag at its default.
func NewSet(values map[Name]bool) (Set, error) {
	explicit := make(map[Name]setting, len(values))
	for name, v := range values {
		def, _, ok := lookup(name)
		if !ok {
			return Set{}, fmt.Errorf("unknown feature flag %q", name)
		}
		explicit[def.Name] = setting{value: v, via: name}
	}
	return Set{explicit: explicit}, nil
}

// Enabled reports whether name (or an alias) is on; unknown names are off.
func (s Set) Enabled(name Name) bool {
	def, _, ok := lookup(name)
	if !ok {
		return false
	}
	if st, ok := s.explicit[def.Name]; ok {
		return st.value
	}
	return def.Default
}

const (
	SourceDefault = "default"
	SourceEnv     = "env"
)

type Status struct {
	Name    Name
	Default bool
	Value   bool
	// Source is SourceDefault, SourceEnv, or "env (alias X)".
	Source      string
	Description string
}

func (s Set) Describe() []Status {
	out := make([]Status, 0, len(definitions))
	for _, d := range definitions {
		st := Status{Name: d.Name, Default: d.Default, Value: d.Default, Source: SourceDefault, Description: d.Description}
		if e, ok := s.explicit[d.Name]; ok {
			st.Value = e.value
			st.Source = SourceEnv
			if e.via != d.Name {
				st.Source = fmt.Sprintf("%s (alias %s)", SourceEnv, e.via)
			}
		}
		out = append(out, st)
	}
	return out
}
