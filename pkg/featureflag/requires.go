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
)

// Active reports whether name is on and so, recursively, is every flag it requires.
func (s Set) Active(name Name) bool {
	return s.active(name, map[Name]bool{})
}

func (s Set) active(name Name, visiting map[Name]bool) bool {
	def, _, ok := lookup(name)
	if !ok || visiting[def.Name] || !s.Enabled(def.Name) {
		return false
	}
	visiting[def.Name] = true
	for _, r := range def.Requires {
		if !s.active(r, visiting) {
			return false
		}
	}
	return true
}

type Unmet struct {
	Flag    Name
	Missing []Name
	Effect  string
}

func (u Unmet) Message() string {
	missing := make([]string, len(u.Missing))
	for i, m := range u.Missing {
		missing[i] = string(m)
	}
	all := strings.Join(append(missing, string(u.Flag)), ",")
	return fmt.Sprintf("%s needs %s too; %s. Set KOPS_FEATURE_FLAGS=%s", u.Flag, strings.Join(missing, " and "), u.Effect, all)
}

// Unmet lists, in table order, flags that are on while a flag they require is not active.
func (s Set) Unmet() []Unmet {
	var out []Unmet
	for _, d := range definitions {
		if !s.Enabled(d.Name) {
			continue
		}
		var missing []Name
		for _, r := range d.Requires {
			if !s.Active(r) {
				missing = append(missing, r)
			}
		}
		if len(missing) > 0 {
			out = append(out, Unmet{Flag: d.Name, Missing: missing, Effect: d.WithoutRequirements})
		}
	}
	return out
}
