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

// Name is the exact, case-sensitive name of a feature flag as written in
// KOPS_FEATURE_FLAGS.
type Name string

// Names of the known flags and their aliases.
const (
	// ClusterAddons enables kops create cluster --add and ships the additional objects stored with a
	// cluster (by --add or kops create -f, which needs no flag) as an addon.
	ClusterAddons Name = "ClusterAddons"
	// UseAddonOperators deploys addons such as CoreDNS through their cluster-addons operators.
	UseAddonOperators Name = "UseAddonOperators"
	// UseOperators is an older spelling of UseAddonOperators, kept so that
	// existing environments keep working.
	UseOperators Name = "UseOperators"
)

// Definition describes one known flag.
type Definition struct {
	Name        Name
	Default     bool
	Description string
	// Aliases are other names that set the same flag.
	Aliases []Name
	// Requires are the flags this one works only together with: it is Active only when they are.
	// This is the one place such a rule is written; callers ask Set.Active and Set.Unmet.
	Requires []Name
	// WithoutRequirements says what happens when the flag is on without Requires, for the warning.
	WithoutRequirements string
}

// definitions is the single table of known flags; adding a flag is one line.
// Its order is the order Describe reports flags in.
var definitions = []Definition{
	{Name: ClusterAddons, Default: false, Description: "Store extra objects with kops create cluster --add, and ship a cluster's additional objects as an addon."},
	{Name: UseAddonOperators, Default: false, Description: "Deploy CoreDNS through the cluster-addons operator instead of built-in manifests.", Aliases: []Name{UseOperators},
		Requires: []Name{ClusterAddons}, WithoutRequirements: "CoreDNS stays built in"},
}

// Known returns a copy of the known flag definitions in table order.
func Known() []Definition {
	out := make([]Definition, len(definitions))
	for i, d := range definitions {
		d.Aliases = append([]Name(nil), d.Aliases...)
		d.Requires = append([]Name(nil), d.Requires...)
		out[i] = d
	}
	return out
}

// lookup resolves a flag name or alias, matched exactly, to its definition.
// viaAlias is true when name was an alias.
func lookup(name Name) (def Definition, viaAlias bool, ok bool) {
	for _, d := range definitions {
		if d.Name == name {
			return d, false, true
		}
		for _, a := range d.Aliases {
			if a == name {
				return d, true, true
			}
		}
	}
	return Definition{}, false, false
}
