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

package validation

import (
	"strconv"
	"strings"

	"k8s.io/kops/pkg/imageref"
)

// imageProblem explains what is wrong with an image reference such as
// registry.k8s.io/coredns/coredns:v1.12.0 or name@sha256:<hex>, or returns "" when it is valid. The
// reference is parsed by the project's one image parser (package imageref), the grammar container
// runtimes use, so that validation accepts exactly what remapping and the nodes accept.
func imageProblem(ref string) string {
	if _, err := imageref.Parse(ref); err != nil {
		return problem(err)
	}
	return ""
}

// pinnedImageProblem is imageProblem, and also refuses what channels refuses in an addon's
// manifest (channelsapi.ValidatePinnedImage, the same parser): an image that names no tag or
// digest, or the mutable tag latest. An addon's image is the same in every mode, and the
// operator's custom resource accepts only pinned images.
func pinnedImageProblem(ref string) string {
	if _, err := imageref.ParsePinned(ref); err != nil {
		return problem(err)
	}
	return ""
}

// registryProblem explains what is wrong with a registry location host[:port][/path], as used for
// assets.containerRegistry and assets.containerProxy, or returns "" when it is fine. It is the
// check the remapper makes (assets.NewRemapper), so a cluster that validates also remaps.
func registryProblem(location string) string {
	if _, err := imageref.ParseLocation(location); err != nil {
		// field.Invalid prints the value already.
		return strings.TrimPrefix(err.Error(), strconv.Quote(strings.TrimSuffix(location, "/"))+": ")
	}
	return ""
}

// problem drops the parser's `image reference "..."` prefix: field.Invalid prints the value already.
func problem(err error) string {
	msg := err.Error()
	if rest, ok := strings.CutPrefix(msg, "image reference "); ok {
		if i := strings.Index(rest, `": `); strings.HasPrefix(rest, `"`) && i > 0 {
			return rest[i+3:]
		}
	}
	return msg
}
