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

package assets

import (
	"fmt"
	"strings"

	"k8s.io/kops/pkg/apis/kops"
	"k8s.io/kops/pkg/imageref"
)

// Remapper rewrites image references according to a cluster's spec.assets.
//
// Rules (the input is parsed and normalized first by package imageref, that is by
// github.com/distribution/reference as container runtimes do: "busybox" is
// docker.io/library/busybox):
//
//   - containerRegistry is a mirror the images were copied into. The image's registry host is
//     replaced and its whole repository path kept, so images from different projects cannot
//     collide: registry.k8s.io/coredns/coredns:v1.12.4 with containerRegistry
//     registry.example.com/mirror becomes registry.example.com/mirror/coredns/coredns:v1.12.4.
//     (kops flattens the path with dashes, coredns-coredns; keeping it makes the mirror layout
//     the same as the upstream one, which is what registry copy tools produce.)
//   - containerProxy is a pull-through cache in front of several registries. The original
//     registry host is kept as the first path component, because the proxy needs it to know which
//     upstream to fetch from: proxy.example.com/registry.k8s.io/coredns/coredns:v1.12.4 and
//     proxy.example.com/docker.io/library/busybox. The host is lower-cased; an image from a
//     registry with a port or an IPv6 address cannot be named so and is refused.
//   - Either location must start with a host runtimes read as a registry (a dot, a port, or
//     localhost): they read "mirror/coredns/coredns" as Docker Hub's namespace mirror.
//   - Tags and digests are preserved exactly; no tag is ever added or dropped.
//   - An image already under the configured location is returned unchanged, so remapping is
//     idempotent and repeated completion of a cluster converges.
//
// A nil *Remapper, or one built from a nil spec, returns images unchanged (after validating them).
type Remapper struct {
	containerRegistry string
	containerProxy    string
}

// NewRemapper builds a Remapper from spec.assets; a nil spec means no remapping. It rejects setting
// both containerRegistry and containerProxy, because no single rule could satisfy both.
func NewRemapper(spec *kops.AssetsSpec) (*Remapper, error) {
	r := &Remapper{}
	if spec == nil {
		return r, nil
	}
	if spec.ContainerRegistry != "" && spec.ContainerProxy != "" {
		return nil, fmt.Errorf("spec.assets: containerRegistry and containerProxy are mutually exclusive: set only one")
	}
	var err error
	if spec.ContainerRegistry != "" {
		if r.containerRegistry, err = imageref.ParseLocation(spec.ContainerRegistry); err != nil {
			return nil, fmt.Errorf("spec.assets.containerRegistry: %w", err)
		}
	}
	if spec.ContainerProxy != "" {
		if r.containerProxy, err = imageref.ParseLocation(spec.ContainerProxy); err != nil {
			return nil, fmt.Errorf("spec.assets.containerProxy: %w", err)
		}
	}
	return r, nil
}

// RemapImage returns where image should be pulled from. It fails when image is not a valid
// reference, since the node's runtime would refuse it anyway.
func (r *Remapper) RemapImage(image string) (string, error) {
	ref, err := imageref.Parse(image)
	if err != nil {
		return "", err
	}
	var out string
	switch {
	case r == nil || (r.containerRegistry == "" && r.containerProxy == ""):
		return image, nil
	case r.containerRegistry != "":
		if strings.HasPrefix(image, r.containerRegistry+"/") {
			return image, nil
		}
		out = r.containerRegistry + "/" + ref.Repository + ref.Suffix()
	default:
		if strings.HasPrefix(image, r.containerProxy+"/") {
			return image, nil
		}
		// The upstream host becomes a path component, which must be lower case (host names are
		// not case-sensitive) and cannot hold a port or an IPv6 address.
		upstream := strings.ToLower(ref.Registry)
		if strings.ContainsAny(upstream, ":[]") {
			return "", fmt.Errorf("image reference %q: its registry %q cannot be named in a path below containerProxy %s; give the image from a registry without a port, or use containerRegistry", image, ref.Registry, r.containerProxy)
		}
		out = r.containerProxy + "/" + upstream + "/" + ref.Repository + ref.Suffix()
	}
	// The longer path can pass the grammar's limit of 255 characters.
	if _, err := imageref.Parse(out); err != nil {
		return "", fmt.Errorf("image reference %q cannot be remapped: %w", image, err)
	}
	return out, nil
}
