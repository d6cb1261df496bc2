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

package apply

import (
	"errors"
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"k8s.io/kops/channels/pkg/api"
	"k8s.io/kops/util/pkg/vfs"
)

// Channel is a bootstrap channel and its addons' manifests, read from the channel's location.
type Channel struct {
	Location string
	Addons   []*Addon
	// TakeOver are the addons the channel takes over from another tool's record and then retires
	// (api.AddonsSpec.TakeOver).
	TakeOver []*Addon
}

// Addon is one addon of the channel with its objects.
type Addon struct {
	Spec    api.AddonSpec
	Objects []*unstructured.Unstructured
}

// ReadChannel reads a bootstrap channel (file://, a plain path, or memfs:// when paths has a store) and every
// manifest it names, relative to the channel file, and checks all of it before anything is applied:
// the channel's fields, that every manifest exists, matches its recorded hash and holds objects,
// and that every object's metadata is what the API server will accept (checkMetadata).
// Every problem is reported at once (*InvalidChannelError); a channel with any problem is not
// applied at all.
func ReadChannel(location string, paths *vfs.Context) (*Channel, error) {
	// Said here, not by the path parser, whose message for an empty path is about kops's --state.
	if location == "" {
		return nil, errors.New("no channel given: LOCATION is empty; give the bootstrap channel's file:// URL or path, " +
			"e.g. channels apply channel file:///srv/kops-state/my.example.com/addons/bootstrap-channel.yaml")
	}
	p, err := paths.ParsePath(location)
	if err != nil {
		return nil, err
	}
	data, err := p.ReadFile()
	if err != nil {
		return nil, fmt.Errorf("reading channel %s: %w", location, err)
	}
	addons, err := api.ParseAddonsFile(p.String(), data)
	if err != nil {
		return nil, &InvalidChannelError{Location: p.String(), Problems: []error{err}}
	}
	dir := p.String()[:strings.LastIndex(p.String(), "/")]
	base, err := paths.ParsePath(dir)
	if err != nil {
		return nil, err
	}
	ch := &Channel{Location: p.String()}
	invalid := &InvalidChannelError{Location: p.String()}
	// First every manifest is read and decoded; then every object is checked against what the API
	// server will require of it, which for custom kinds depends on the CRDs of the whole channel.
	type read struct {
		where string
		addon *Addon
		m     *manifest
		err   error
	}
	var all []read
	var objects []*unstructured.Unstructured
	for _, list := range []struct {
		path  string
		specs []api.AddonSpec
		into  *[]*Addon
	}{{"spec.addons", addons.Spec.Addons, &ch.Addons}, {"spec.takeOver", addons.Spec.TakeOver, &ch.TakeOver}} {
		for i, spec := range list.specs {
			a := &Addon{Spec: spec}
			*list.into = append(*list.into, a)
			m, err := readManifest(base.Join(spec.Manifest), spec)
			if m != nil {
				objects = append(objects, m.unstructured()...)
			}
			all = append(all, read{where: fmt.Sprintf("%s[%d] (%s)", list.path, i, spec.Name), addon: a, m: m, err: err})
		}
	}
	rules := withCRDs(objects)
	for _, r := range all {
		if r.err == nil {
			r.m.checkMetadata(rules)
			r.err = r.m.err()
		}
		if r.err != nil {
			invalid.Problems = append(invalid.Problems, fmt.Errorf("%s: %w", r.where, r.err))
			continue
		}
		r.addon.Objects = r.m.unstructured()
	}
	if len(invalid.Problems) > 0 {
		return nil, invalid
	}
	return ch, nil
}

// InvalidChannelError lists every problem of a channel and its manifests.
type InvalidChannelError struct {
	Location string
	Problems []error
}

func (e *InvalidChannelError) Error() string {
	lines := []string{fmt.Sprintf("channel %s is invalid; nothing was applied:", e.Location)}
	for _, p := range e.Problems {
		lines = append(lines, "  "+strings.ReplaceAll(p.Error(), "\n", "\n  "))
	}
	return strings.Join(lines, "\n")
}

// readManifest reads and decodes an addon's manifest once its bytes match the recorded hash.
func readManifest(file vfs.Path, spec api.AddonSpec) (*manifest, error) {
	data, err := file.ReadFile()
	if err != nil {
		return nil, fmt.Errorf("manifest %s: %w", spec.Manifest, err)
	}
	if got := api.ManifestHash(data); got != spec.ManifestHash {
		return nil, fmt.Errorf("manifest %s has hash %s, the channel records %s: the manifest changed after the channel was written", spec.Manifest, got, spec.ManifestHash)
	}
	return decodeManifest(file.String(), data), nil
}

// providedKinds are the custom kinds an addon's CRDs define.
func (a *Addon) providedKinds() []schema.GroupKind {
	var out []schema.GroupKind
	for _, o := range a.Objects {
		if o.GroupVersionKind().GroupKind() != crdKind {
			continue
		}
		group, _, _ := unstructured.NestedString(o.Object, "spec", "group")
		kind, _, _ := unstructured.NestedString(o.Object, "spec", "names", "kind")
		out = append(out, schema.GroupKind{Group: group, Kind: kind})
	}
	return out
}

var (
	crdKind       = schema.GroupKind{Group: "apiextensions.k8s.io", Kind: "CustomResourceDefinition"}
	namespaceKind = schema.GroupKind{Kind: "Namespace"}
)
