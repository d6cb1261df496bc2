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

package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/blang/semver/v4"
	"go.yaml.in/yaml/v3"
)

// The image to build is read from the channel, never written here: the channel's package manifest
// is the one place the operator's name and tag live, so what `make images` builds is by construction
// what the cluster pulls.

type channelFile struct {
	Spec struct {
		Packages []struct {
			Name    string `yaml:"name"`
			Version string `yaml:"version"`
		} `yaml:"packages"`
	} `yaml:"spec"`
}

// packageVersion returns the highest version of pkg that the channel file lists.
func packageVersion(channelPath, pkg string) (string, error) {
	data, err := os.ReadFile(channelPath)
	if err != nil {
		return "", fmt.Errorf("reading channel: %w", err)
	}
	var ch channelFile
	if err := yaml.Unmarshal(data, &ch); err != nil {
		return "", fmt.Errorf("parsing channel %s: %w", channelPath, err)
	}
	var best *semver.Version
	bestText := ""
	for i, p := range ch.Spec.Packages {
		if p.Name != pkg {
			continue
		}
		v, err := semver.Parse(p.Version)
		if err != nil {
			return "", fmt.Errorf("%s: spec.packages[%d].version %q: %w", channelPath, i, p.Version, err)
		}
		if best == nil || v.GT(*best) {
			best, bestText = &v, p.Version
		}
	}
	if best == nil {
		return "", fmt.Errorf("%s: no package %q in spec.packages", channelPath, pkg)
	}
	return bestText, nil
}

type manifestObject struct {
	Kind     string `yaml:"kind"`
	Metadata struct {
		Name string `yaml:"name"`
	} `yaml:"metadata"`
	Spec struct {
		Template struct {
			Spec struct {
				Containers     []struct{ Image string } `yaml:"containers"`
				InitContainers []struct{ Image string } `yaml:"initContainers"`
			} `yaml:"spec"`
		} `yaml:"template"`
	} `yaml:"spec"`
}

// manifestImage returns the one image the Deployments of a package manifest run. More than one
// distinct image is an error: the builder makes one image per package.
func manifestImage(manifestPath string) (string, error) {
	data, err := os.ReadFile(manifestPath)
	if err != nil {
		return "", fmt.Errorf("reading package manifest: %w", err)
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	images := map[string]bool{}
	first := ""
	for {
		var obj manifestObject
		err := dec.Decode(&obj)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return "", fmt.Errorf("parsing %s: %w", manifestPath, err)
		}
		if obj.Kind != "Deployment" {
			continue
		}
		pod := obj.Spec.Template.Spec
		for _, c := range append(pod.InitContainers, pod.Containers...) {
			if c.Image == "" {
				return "", fmt.Errorf("%s: Deployment %s has a container without an image", manifestPath, obj.Metadata.Name)
			}
			if !images[c.Image] {
				images[c.Image] = true
				if first == "" {
					first = c.Image
				}
			}
		}
	}
	switch len(images) {
	case 0:
		return "", fmt.Errorf("%s: no Deployment names an image", manifestPath)
	case 1:
		return first, nil
	default:
		return "", fmt.Errorf("%s: the Deployments name %d images; the builder makes one per package", manifestPath, len(images))
	}
}

// channelImage is the image reference and package version that the channel names for pkg.
func channelImage(channelPath, pkg string) (image, version string, err error) {
	version, err = packageVersion(channelPath, pkg)
	if err != nil {
		return "", "", err
	}
	manifest := filepath.Join(filepath.Dir(channelPath), "packages", pkg, version, "manifest.yaml")
	image, err = manifestImage(manifest)
	if err != nil {
		return "", "", err
	}
	return image, version, nil
}
