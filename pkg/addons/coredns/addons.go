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

package coredns

import (
	"fmt"

	"k8s.io/kops/pkg/templates"
)

// The built-in CoreDNS addon, as named in the bootstrap channel; Render renders its template.
const (
	AddonName = "coredns.addons.k8s.io"
	AddonID   = "k8s-1.12"
)

// The addon that pre-creates the RBAC of CoreDNS when its operator runs it: the same objects as the
// built-in addon's, so switching between the two changes no rights.
const (
	RBACAddonName = "coredns-rbac.addons.k8s.io"
	RBACAddonID   = "k8s-1.12"
	RBACTemplate  = "templates/coredns-rbac.addons.k8s.io/k8s-1.12.yaml.template"
)

// RenderRBAC renders the pre-created RBAC of CoreDNS.
func RenderRBAC() ([]byte, error) {
	return templates.Render(templateFS, RBACTemplate, nil, partials)
}

// The addon that holds the autoscaler and the PodDisruptionBudget of CoreDNS when its operator runs
// it: the same objects as the built-in addon's, so that switching moves them in place, and kops's,
// since the operator may write nothing but the four objects it reconciles.
const (
	ScalingAddonName = "coredns-scaling.addons.k8s.io"
	ScalingAddonID   = "k8s-1.12"
	ScalingTemplate  = "templates/coredns-scaling.addons.k8s.io/k8s-1.12.yaml.template"
)

// scalingData is what the coredns-scaling partial reads.
type scalingData struct {
	// Addon is the addon the objects belong to (their addon.kops.k8s.io/name label).
	Addon string
	// AutoscalerImage is the cluster-proportional-autoscaler image, already remapped.
	AutoscalerImage string
	// MaxReplicas bounds the replica count the autoscaler sets; 0 sets no bound.
	MaxReplicas int
}

// RenderScaling renders the autoscaler and the PodDisruptionBudget of CoreDNS as an addon of their
// own, with the autoscaler image of facts and at most maxReplicas replicas (0: no bound, as the
// built-in addon). The objects are those Render gives, but for their addon label and the bound.
func RenderScaling(facts Facts, maxReplicas int) ([]byte, error) {
	if facts.AutoscalerImage == "" {
		return nil, fmt.Errorf("rendering the CoreDNS autoscaler: no autoscaler image")
	}
	if maxReplicas < 0 {
		return nil, fmt.Errorf("rendering the CoreDNS autoscaler: maxReplicas %d is negative", maxReplicas)
	}
	data := scalingData{Addon: ScalingAddonName, AutoscalerImage: facts.AutoscalerImage, MaxReplicas: maxReplicas}
	return templates.Render(templateFS, ScalingTemplate, data, partials)
}
