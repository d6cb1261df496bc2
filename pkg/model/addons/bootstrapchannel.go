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
	"fmt"

	channelsapi "k8s.io/kops/channels/pkg/api"
	"k8s.io/kops/pkg/model"
	"k8s.io/kops/upup/pkg/fi"
	"k8s.io/kops/upup/pkg/fi/fitasks"
)

// BootstrapChannelLocation is relative to the cluster's configBase.
const BootstrapChannelLocation = "addons/bootstrap-channel.yaml"

// BootstrapChannelBuilder writes every addon's manifest and the bootstrap channel listing them, in
// the order of Builders. The channel is written after every manifest, so it never names a hash
// whose manifest is not in place; stale manifests are removed only after it.
type BootstrapChannelBuilder struct {
	Context  *model.KopsModelContext
	Builders []Builder
}

func (b *BootstrapChannelBuilder) Build(c *fi.ModelBuilderContext) error {
	channel := channelsapi.NewAddons("bootstrap")
	var deps []fi.TaskKey
	var owned, keep []string
	seen := map[string]bool{}
	for _, builder := range b.Builders {
		owns := map[string]bool{}
		for _, name := range builder.Owns() {
			owned = append(owned, "addons/"+name)
			owns[name] = true
		}
		addons, err := builder.Addons(b.Context)
		if err != nil {
			return err
		}
		for _, a := range addons {
			// StaleFiles removes old manifests only under owned directories.
			if !owns[a.Spec.Name] {
				return fmt.Errorf("addon %q is built by a builder (%T) whose Owns() does not name it: add it to Owns()", a.Spec.Name, builder)
			}
			if seen[a.Spec.Name] {
				return fmt.Errorf("addon %q is built twice", a.Spec.Name)
			}
			seen[a.Spec.Name] = true
			spec := a.Spec
			spec.ManifestHash = channelsapi.ManifestHash(a.Manifest)
			if a.TakeOver {
				channel.Spec.TakeOver = append(channel.Spec.TakeOver, spec)
			} else {
				channel.Spec.Addons = append(channel.Spec.Addons, spec)
			}

			file := &fitasks.ManagedFile{Name: "addons/" + spec.Manifest, Location: "addons/" + spec.Manifest, Contents: a.Manifest}
			if err := c.AddTask(file); err != nil {
				return err
			}
			deps = append(deps, file.Key())
			keep = append(keep, file.Location)
		}
	}
	data, err := channel.Encode()
	if err != nil {
		return fmt.Errorf("encoding the bootstrap channel: %w", err)
	}
	channelFile := &fitasks.ManagedFile{
		Name:     BootstrapChannelLocation,
		Location: BootstrapChannelLocation,
		Contents: data,
		Deps:     deps,
	}
	if err := c.AddTask(channelFile); err != nil {
		return err
	}
	return c.AddTask(&fitasks.StaleFiles{
		Name:        "addons",
		Directories: owned,
		Keep:        keep,
		Deps:        []fi.TaskKey{channelFile.Key()},
	})
}
