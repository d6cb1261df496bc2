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

package channels

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"github.com/blang/semver/v4"
)

// NoPackageVersionError is Package's error when the channel offers no version of the package for
// the cluster's Kubernetes version.
type NoPackageVersionError struct {
	Channel, Package, KubernetesVersion string
	// Offered lists the channel's versions with their ranges.
	Offered []string
}

func (e *NoPackageVersionError) Error() string {
	msg := fmt.Sprintf("channel %q has no version of package %q for Kubernetes %s", e.Channel, e.Package, e.KubernetesVersion)
	if len(e.Offered) == 0 {
		return msg + "; the channel does not list the package"
	}
	return msg + "; it offers " + strings.Join(e.Offered, ", ")
}

// Package is the version of a package chosen for a cluster.
type Package struct {
	// Channel is Loaded.Name, for messages.
	Channel string
	Name    string
	Version string
	// Image overrides the package's main image when set.
	Image string
	// Manifest is nil when the package has none: some only carry a version for an operator to deploy.
	Manifest []byte
}

// Package picks the highest version of the named package whose range admits kubernetesVersion,
// returning *NoPackageVersionError when none does.
func (l *Loaded) Package(name, kubernetesVersion string) (*Package, error) {
	kv, err := semver.Parse(strings.TrimPrefix(kubernetesVersion, "v"))
	if err != nil {
		return nil, fmt.Errorf("channel %q, package %q: invalid Kubernetes version %q: %w", l.name, name, kubernetesVersion, err)
	}
	var best *Package
	var bestVersion semver.Version
	var offered []string
	for _, p := range l.channel.Spec.Packages {
		if p.Name != name {
			continue
		}
		// ParseChannel has validated both fields.
		v, err := semver.Parse(p.Version)
		if err != nil {
			return nil, fmt.Errorf("channel %q, package %q: %w", l.name, name, err)
		}
		if p.KubernetesVersion == "" {
			offered = append(offered, p.Version+" for any Kubernetes")
		} else {
			offered = append(offered, fmt.Sprintf("%s for Kubernetes %s", p.Version, p.KubernetesVersion))
			admits, err := semver.ParseRange(p.KubernetesVersion)
			if err != nil {
				return nil, fmt.Errorf("channel %q, package %q: %w", l.name, name, err)
			}
			if !admits(kv) {
				continue
			}
		}
		if best == nil || v.GT(bestVersion) {
			best, bestVersion = &Package{Channel: l.name, Name: p.Name, Version: p.Version, Image: p.Image}, v
		}
	}
	if best == nil {
		return nil, &NoPackageVersionError{Channel: l.name, Package: name, KubernetesVersion: kv.String(), Offered: offered}
	}
	manifest, err := l.readPackageFile(manifestPath(best.Name, best.Version))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("channel %q, package %q %s: reading manifest: %w", l.name, name, best.Version, err)
	}
	best.Manifest = manifest
	return best, nil
}
