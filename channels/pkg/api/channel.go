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

package api

import (
	"errors"
	"fmt"
	"strings"

	"github.com/blang/semver/v4"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
	sigsjson "sigs.k8s.io/json"

	"k8s.io/kops/pkg/imageref"
)

// KindChannel is the kind of a package channel, the addon packages a cluster's spec.channel offers.
const KindChannel = "Channel"

const ChannelAPIVersion = "kops.k8s.io/v1alpha2"

type Channel struct {
	metav1.TypeMeta `json:",inline"`
	Metadata        Metadata    `json:"metadata"`
	Spec            ChannelSpec `json:"spec"`
}

// ChannelSpec may list one package name with several versions.
type ChannelSpec struct {
	Packages []PackageSpec `json:"packages"`
}

// PackageSpec is one version of one package. Its manifest, if any, lies at
// packages/<name>/<version>/manifest.yaml, so name and version are validated as path segments.
type PackageSpec struct {
	Name string `json:"name"`
	// Version is a semantic version, compared to pick the newest.
	Version string `json:"version"`
	// KubernetesVersion is a blang/semver range; empty means any.
	KubernetesVersion string `json:"kubernetesVersion,omitempty"`
	// Image overrides the package's main image. It must be pinned, so that what runs depends only
	// on the channel, never on what a registry serves today.
	Image string `json:"image,omitempty"`
}

// ParseChannel decodes exactly one YAML document strictly and validates it, returning every
// problem at once with its field path.
func ParseChannel(data []byte) (*Channel, error) {
	root, problems := oneDocument(data)
	if len(problems) > 0 {
		msgs := make([]string, 0, len(problems))
		for _, p := range problems {
			if p.Line > 0 {
				msgs = append(msgs, fmt.Sprintf("line %d: %v", p.Line, p.Err))
			} else {
				msgs = append(msgs, p.Err.Error())
			}
		}
		return nil, fmt.Errorf("parsing channel: %s", strings.Join(msgs, "; "))
	}
	js, err := nodeToJSON(root)
	if err != nil {
		return nil, fmt.Errorf("parsing channel: line %d: %w", root.Line, err)
	}
	c := &Channel{}
	// sigs.k8s.io/json names the path of an unknown field; encoding/json does not.
	strict, err := sigsjson.UnmarshalStrict(js, c, sigsjson.DisallowDuplicateFields, sigsjson.DisallowUnknownFields)
	if err != nil {
		return nil, fmt.Errorf("parsing channel: %w", err)
	}
	if len(strict) > 0 {
		return nil, fmt.Errorf("parsing channel: %w", errors.Join(strict...))
	}
	if errs := c.Validate(); len(errs) > 0 {
		return nil, fmt.Errorf("invalid channel: %w", errs.ToAggregate())
	}
	return c, nil
}

func (c *Channel) Validate() field.ErrorList {
	var errs field.ErrorList
	if c.Kind != KindChannel {
		errs = append(errs, field.Invalid(field.NewPath("kind"), c.Kind, "must be "+KindChannel))
	}
	if c.APIVersion != ChannelAPIVersion {
		errs = append(errs, field.Invalid(field.NewPath("apiVersion"), c.APIVersion, "must be "+ChannelAPIVersion))
	}
	seen := map[string]bool{}
	for i, p := range c.Spec.Packages {
		path := field.NewPath("spec", "packages").Index(i)
		errs = append(errs, validatePackage(path, p)...)
		key := p.Name + "@" + p.Version
		if seen[key] {
			errs = append(errs, field.Duplicate(path, key))
		}
		seen[key] = true
	}
	return errs
}

func validatePackage(path *field.Path, p PackageSpec) field.ErrorList {
	var errs field.ErrorList
	if p.Name == "" {
		errs = append(errs, field.Required(path.Child("name"), "a package needs a name"))
	} else if msgs := validation.IsDNS1123Subdomain(p.Name); len(msgs) > 0 {
		errs = append(errs, field.Invalid(path.Child("name"), p.Name, strings.Join(msgs, "; ")))
	}
	if p.Version == "" {
		errs = append(errs, field.Required(path.Child("version"), "a package needs a semantic version such as 1.2.3"))
	} else if _, err := semver.Parse(p.Version); err != nil {
		errs = append(errs, field.Invalid(path.Child("version"), p.Version, "must be a semantic version such as 1.2.3: "+err.Error()))
	}
	if p.KubernetesVersion != "" {
		if _, err := semver.ParseRange(p.KubernetesVersion); err != nil {
			errs = append(errs, field.Invalid(path.Child("kubernetesVersion"), p.KubernetesVersion,
				"must be a version range such as \">=1.30.0 <1.37.0\": "+err.Error()))
		}
	}
	if p.Image != "" {
		if err := ValidatePinnedImage(p.Image); err != nil {
			errs = append(errs, field.Invalid(path.Child("image"), p.Image, err.Error()))
		}
	}
	return errs
}

// ValidatePinnedImage refuses an image without a sha256 digest or a tag other than "latest":
// mutable references make two runs of the same kops version deploy different software.
func ValidatePinnedImage(image string) error {
	_, err := imageref.ParsePinned(image)
	return err
}
