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

type Name string

const (
	// ClusterAddons enables --add and ships a cluster's additional objects as an addon.
	ClusterAddons     Name = "ClusterAddons"
	UseAddonOperators Name = "UseAddonOperators"
	// UseOperators is the old spelling of UseAddonOperators.
	UseOperators Name = "UseOperators"
)

type Definition struct {
	Name        Name
	Default     bool
	Description string
	Aliases     []Name
	// Requires are flags this one needs to be Active; this is the one place such a rule is written.
	Requires []Name
	// WithoutRequirements says, for the warning, what happens when Requires are off.
	WithoutRequirements string
}

// definitions is the table of known flags, in Describe order.
var definitions = []Definition{
	{Name: ClusterAddons, Default: false, Description: "Store extra objects with kops create cluster --add, and ship a cluster's additional objects as an addon."},
	{Name: UseAddonOperators, Default: false, Description: "Deploy CoreDNS through the cluster-addons operator instead of built-in manifests.", Aliases: []Name{UseOperators},
		Requires: []Name{ClusterAddons}, WithoutRequirements: "CoreDNS stays built in"},
}

func Known() []Definition {
	out := make([]Definition, len(definitions))
	for i, d := range definitions {
		d.Aliases = append([]Name(nil), d.Aliases...)
		d.Requires = append([]Name(nil), d.Requires...)
		out[i] = d
	}
	return out
}

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
