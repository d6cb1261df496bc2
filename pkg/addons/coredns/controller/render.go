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

// This file is the operator's only tie to the renderer: the objects it applies are those of
// pkg/addons/coredns, the one renderer kops's built-in addon and client-side mode use too, for
// the same spec and facts, which is what the admission policy admits.

// Spec is the CoreDNS object's spec.
type Spec = coredns.Spec

// Facts are what the CoreDNS object does not say and the rendering needs: the cluster's kubeDNS
// resources, tolerations, affinity, pod annotations and remapped autoscaler image. kops passes them
// in --cluster-facts; without it the operator renders a default cluster's.
type Facts = coredns.Facts

// DefaultFacts are the facts of a cluster that sets nothing in spec.kubeDNS.
func DefaultFacts() Facts { return coredns.DefaultFacts() }

// renderObjects returns the manifest the operator renders for spec and facts: the Corefile and image are
// taken as they are, never derived again.
func renderObjects(spec Spec, facts Facts) ([]byte, error) {
	manifest, err := coredns.Render(spec, facts)
	if err != nil {
		return nil, fmt.Errorf("CoreDNS %s: %w", spec.Version, err)
	}
	return manifest, nil
}
