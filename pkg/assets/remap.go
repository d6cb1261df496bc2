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

// Remapper rewrites image references for a cluster's spec.assets; inputs are normalized by package
// imageref ("busybox" is docker.io/library/busybox).
//
//   - containerRegistry replaces the registry host and keeps the whole path, so projects cannot
//     collide (kops flattens it to coredns-coredns; keeping it matches what registry copy tools produce).
//   - containerProxy keeps the lower-cased upstream host as the first path component, which the
//     proxy needs to pick the upstream; a registry with a port or IPv6 address cannot be named so.
//   - A location must start with a host runtimes read as a registry, or they read Docker Hub.
//   - Tags and digests are kept exactly; an image already under the location is unchanged, so
//     remapping is idempotent.
//
// A nil *Remapper returns images unchanged after validating them.
type Remapper struct {
	containerRegistry string
	containerProxy    string
}

// NewRemapper returns a Remapper for spec (nil means none); containerRegistry and containerProxy
// are exclusive.
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

// RemapImage returns where image should be pulled from, or an error for an invalid reference.
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
