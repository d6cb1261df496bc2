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

package crdschema

import (
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"k8s.io/kops/pkg/imageref"
)

// TestPinnedImagePatternAgreesWithTheParser: the API server checks an operator's custom resource
// with PinnedImagePattern, kops checks the same image with imageref.ParsePinned before rendering
// it. Every image kops accepts must pass the schema, or a valid cluster renders a custom resource
// the API server refuses. Malformed ones are refused by both; the schema is the looser check (a
// pattern cannot refuse the tag latest, and it reads "bad_host.example.com/x" as a path), which is
// why kops checks first.
func TestPinnedImagePatternAgreesWithTheParser(t *testing.T) {
	const sha = "sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
	pattern := regexp.MustCompile(PinnedImagePattern)
	for _, image := range []string{
		"registry.k8s.io/coredns/coredns:v1.12.4",
		"busybox:1.37",
		"localhost:5000/team/app:1",
		"[::1]:5000/app@" + sha,
		"quay.io/cilium/cilium:v1.18.0@" + sha,
		"my-registry.example.com/team__x/core.dns-x:V1_2",
		"Registry.K8s.io/pause:3.10",
	} {
		_, err := imageref.ParsePinned(image)
		assert.NoError(t, err, image)
		assert.True(t, pattern.MatchString(image), "the schema refuses %q, which kops accepts", image)
	}
	for _, image := range []string{
		"busybox",
		"busybox@sha256:" + strings.Repeat("a", 32),
		"registry.k8s.io/CoreDNS:v1",
		"registry.k8s.io//pause:3.10",
	} {
		_, err := imageref.ParsePinned(image)
		assert.Error(t, err, image)
		assert.False(t, pattern.MatchString(image), "the schema accepts %q, which kops refuses", image)
	}
}
