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

package addons

import (
	kube2iammodel "k8s.io/kops/pkg/addons/kube2iam/kopsmodel"
	"k8s.io/kops/pkg/model"
	"k8s.io/kops/pkg/model/addonapi"
)

// The types an addon's folder builds with (package addonapi), named here as the builders use them.
type (
	Addon        = addonapi.Addon
	Builder      = addonapi.Builder
	Operator     = addonapi.Operator
	Instructions = addonapi.Instructions
	BuiltIn      = addonapi.BuiltIn
)

// DefaultBuilders are the addon builders of every cluster, in channel order: the default
// ServiceAccounts are locked before any addon's pods start, every operator of Operators comes
// after the built-in addons it takes over, and the objects stored with the cluster come last.
func DefaultBuilders() []Builder { return BuildersFor(Operators()) }

// BuildersFor are the addon builders of every cluster with operators as the registry: what
// DefaultBuilders gives for Operators(), and what a test gives for a registry of its own.
func BuildersFor(operators []*Operator) []Builder {
	builders := []Builder{ServiceAccountDefaults{}}
	for _, o := range operators {
		if o.BuiltIn != nil {
			builders = append(builders, BuiltInBuilder{o})
		}
	}
	for _, o := range operators {
		builders = append(builders, OperatorBuilder{o})
	}
	return append(builders, kube2iammodel.Builder{}, ClusterAddons{})
}

// RequiredPackages names the channel packages builders need for this cluster, in builder order,
// each once.
func RequiredPackages(ctx *model.KopsModelContext, builders []Builder) []string {
	var names []string
	seen := map[string]bool{}
	for _, b := range builders {
		for _, name := range b.Packages(ctx) {
			if !seen[name] {
				seen[name] = true
				names = append(names, name)
			}
		}
	}
	return names
}
