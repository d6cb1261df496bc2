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

// Addon is one addon's manifest and its bootstrap-channel entry; the channel builder adds the hash.
type Addon struct {
	Spec     channelsapi.AddonSpec
	Manifest []byte
	// TakeOver lists the addon under the channel's takeOver (channelsapi.AddonsSpec.TakeOver).
	TakeOver bool
}

// NewAddon fills the channel entry as kops does: manifest <name>/<id>.yaml, selector k8s-addon=<name>.
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

// Builder produces the addons of one concern without I/O; an addon that does not apply is not returned.
type Builder interface {
	// Owns names every addon the builder may produce, so that one it stops producing is removed.
	Owns() []string
	// Packages names the channel packages Addons reads from ctx.Packages; they are loaded first.
	Packages(ctx *model.KopsModelContext) []string
	Addons(ctx *model.KopsModelContext) ([]*Addon, error)
}

// RequirePackage returns the loaded channel package name, or an error if it (or, with
// needManifest, its manifest) is missing.
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

// PackageImage is p's image, or repository:v<version>, remapped like every image kops deploys.
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
