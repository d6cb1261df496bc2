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

// The types of package addonapi, named as the builders use them.
type (
	Addon        = addonapi.Addon
	Builder      = addonapi.Builder
	Operator     = addonapi.Operator
	Instructions = addonapi.Instructions
	BuiltIn      = addonapi.BuiltIn
)

// DefaultBuilders are the addon builders of every cluster, in channel order.
func DefaultBuilders() []Builder { return BuildersFor(Operators()) }

// BuildersFor are the builders with operators as the registry, in channel order: the default
// ServiceAccounts are locked before any addon's pods start, and every operator comes after the
// built-in addons it takes over.
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

// RequiredPackages names the channel packages builders need, in builder order, each once.
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
