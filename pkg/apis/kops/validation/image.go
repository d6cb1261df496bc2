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

// imageProblem returns why ref is not a valid image reference, or "". It uses package imageref, so
// validation accepts exactly what remapping and the nodes accept.
func imageProblem(ref string) string {
	if _, err := imageref.Parse(ref); err != nil {
		return problem(err)
	}
	return ""
}

// pinnedImageProblem also refuses what channels refuses: no tag or digest, or the tag latest.
func pinnedImageProblem(ref string) string {
	if _, err := imageref.ParsePinned(ref); err != nil {
		return problem(err)
	}
	return ""
}

// registryProblem checks a registry location as assets.NewRemapper does, so a cluster that validates
// also remaps.
func registryProblem(location string) string {
	if _, err := imageref.ParseLocation(location); err != nil {
		// field.Invalid prints the value already.
		return strings.TrimPrefix(err.Error(), strconv.Quote(strings.TrimSuffix(location, "/"))+": ")
	}
	return ""
}

func problem(err error) string {
	msg := err.Error()
	if rest, ok := strings.CutPrefix(msg, "image reference "); ok {
		if i := strings.Index(rest, `": `); strings.HasPrefix(rest, `"`) && i > 0 {
			return rest[i+3:]
		}
	}
	return msg
}
