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

package addonapi

import (
	"fmt"

	channelsapi "k8s.io/kops/channels/pkg/api"
	"k8s.io/kops/channels/pkg/channels"
	"k8s.io/kops/pkg/assets"
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

// NewAddon fills the channel entry the way kops does: the manifest lies at <name>/<id>.yaml next to
// the channel, and the selector names the addon.
func NewAddon(name, id string, manifest []byte) *Addon {
	return &Addon{
		Spec: channelsapi.AddonSpec{
			Name:     name,
			ID:       id,
			Selector: map[string]string{"k8s-addon": name},
			Manifest: name + "/" + id + ".yaml",
		},
		Manifest: manifest,
	}
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

// RequirePackage is the loaded channel package name; needManifest also requires its manifest.
func RequirePackage(ctx *model.KopsModelContext, name string, needManifest bool) (*channels.Package, error) {
	p := ctx.Packages[name]
	switch {
	case p == nil:
		return nil, fmt.Errorf("channel package %q was not loaded", name)
	case needManifest && p.Manifest == nil:
		return nil, fmt.Errorf("channel package %q version %s has no manifest (packages/%s/%s/manifest.yaml next to the channel)", name, p.Version, name, p.Version)
	}
	return p, nil
}

// PackageImage is the image of a channel package that names what an operator deploys: the
// package's image, or repository:v<version>, remapped like every other image kops deploys.
func PackageImage(p *channels.Package, repository string, remapper *assets.Remapper) (string, error) {
	image := p.Image
	if image == "" {
		image = repository + ":v" + p.Version
	}
	remapped, err := remapper.RemapImage(image)
	if err != nil {
		return "", fmt.Errorf("package %s version %s: %w", p.Name, p.Version, err)
	}
	return remapped, nil
}
