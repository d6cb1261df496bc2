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

// Package addons builds the addons that `kops update cluster` writes under <configBase>/addons and
// the bootstrap channel that lists them for `channels apply`.
package addons

import (
	channelsapi "k8s.io/kops/channels/pkg/api"
	"k8s.io/kops/pkg/model"
)

// Addon is one addon: its manifest's bytes and its entry in the bootstrap channel (without the
// hash, which the channel builder computes from the bytes it writes).
type Addon struct {
	Spec     channelsapi.AddonSpec
	Manifest []byte
	// TakeOver lists the addon under the channel's takeOver rather than its addons: it is applied
	// only over another tool's record of it, and then retired (channelsapi.AddonsSpec.TakeOver).
	TakeOver bool
}

// Builder produces the addons of one concern from the model context. It does no I/O. An addon
// that does not apply to the cluster is simply not returned.
type Builder interface {
	// Owns names every addon the builder may produce, whether or not it does for this cluster, so
	// that the manifests of an addon it stops producing are removed.
	Owns() []string
	// Packages names the channel packages Addons reads for this cluster (from ctx.Packages), so
	// that they are loaded before the builders run; what a builder needs is declared next to where
	// it is used, not in a list kept in step elsewhere.
	Packages(ctx *model.KopsModelContext) []string
	Addons(ctx *model.KopsModelContext) ([]*Addon, error)
}

// newAddon fills the channel entry the way kops does: the manifest lies at <name>/<id>.yaml next to
// the channel, and the selector names the addon.
func newAddon(name, id string, manifest []byte) *Addon {
	return &Addon{
		Spec: channelsapi.AddonSpec{
			Name:     name,
			ID:       id,
			Selector: map[string]string{channelsapi.LabelKopsAddon: name},
			Manifest: name + "/" + id + ".yaml",
		},
		Manifest: manifest,
	}
}

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
	return append(builders, Kube2IAM{}, ClusterAddons{})
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
