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

// The addon that pre-creates CoreDNS's RBAC when the operator runs it: the built-in addon's objects,
// so switching changes no rights.
const (
	RBACAddonName = "coredns-rbac.addons.k8s.io"
	RBACAddonID   = "k8s-1.12"
	RBACTemplate  = "templates/coredns-rbac.addons.k8s.io/k8s-1.12.yaml.template"
)

func RenderRBAC() ([]byte, error) {
	return templates.Render(templateFS, RBACTemplate, nil, partials)
}

// The addon holding CoreDNS's autoscaler and PodDisruptionBudget when the operator runs it: kops
// writes them, since the operator may write only the four objects it reconciles.
const (
	ScalingAddonName = "coredns-scaling.addons.k8s.io"
	ScalingAddonID   = "k8s-1.12"
	ScalingTemplate  = "templates/coredns-scaling.addons.k8s.io/k8s-1.12.yaml.template"
)

// scalingData is what the coredns-scaling partial reads.
type scalingData struct {
	// Addon is the objects' addon.kops.k8s.io/name label.
	Addon           string
	AutoscalerImage string
	// MaxReplicas bounds the autoscaler; 0 sets no bound.
	MaxReplicas int
}

// RenderScaling renders Render's autoscaler and PodDisruptionBudget under ScalingAddonName, with at
// most maxReplicas replicas (0: no bound, as the built-in addon).
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
