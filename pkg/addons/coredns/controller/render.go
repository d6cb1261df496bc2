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

package controller

import (
	"fmt"

	"k8s.io/kops/pkg/addons/coredns"
)

// The operator renders with pkg/addons/coredns, the renderer kops's built-in addon and client-side
// mode use, so it applies exactly what the admission policy admits.

type Spec = coredns.Spec

// Facts are what the rendering needs beyond the CoreDNS object; without coredns.FactsFlag the
// operator renders a default cluster's.
type Facts = coredns.Facts

func DefaultFacts() Facts { return coredns.DefaultFacts() }

// renderObjects renders spec as it is: the Corefile and image are never derived again.
func renderObjects(spec Spec, facts Facts) ([]byte, error) {
	manifest, err := coredns.Render(spec, facts)
	if err != nil {
		return nil, fmt.Errorf("CoreDNS %s: %w", spec.Version, err)
	}
	return manifest, nil
}
