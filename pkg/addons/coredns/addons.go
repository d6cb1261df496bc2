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

// AutoscalerName names the autoscaler's ServiceAccount, rights, parameters and Deployment.
const AutoscalerName = "coredns-autoscaler"

// BuiltInMinReplicas is the fewest replicas the built-in addon's autoscaler sets, as kops's; it
// sets no most. With the operator, kops renders the operator's bounds instead (RenderScaling).
const BuiltInMinReplicas = 1

// scalingData is what the coredns-scaling partial reads.
type scalingData struct {
	// Addon is the objects' addon.kops.k8s.io/name label.
	Addon           string
	AutoscalerImage string
	// MinReplicas and MaxReplicas bound the autoscaler; MaxReplicas 0 sets no most.
	MinReplicas int64
	MaxReplicas int64
}

// RenderScaling renders Render's autoscaler and PodDisruptionBudget under ScalingAddonName, with
// the autoscaler's replica count bounded to [minReplicas, maxReplicas] (maxReplicas 0: no most, as
// the built-in addon). The caller passes the bounds the admission policies enforce (this package,
// linked by the operator, does not generate them).
func RenderScaling(facts Facts, minReplicas, maxReplicas int64) ([]byte, error) {
	if facts.AutoscalerImage == "" {
		return nil, fmt.Errorf("rendering the CoreDNS autoscaler: no autoscaler image")
	}
	if minReplicas < 1 {
		return nil, fmt.Errorf("rendering the CoreDNS autoscaler: minReplicas %d is below 1 (no replica: DNS down)", minReplicas)
	}
	if maxReplicas < 0 || (maxReplicas != 0 && maxReplicas < minReplicas) {
		return nil, fmt.Errorf("rendering the CoreDNS autoscaler: maxReplicas %d must be 0 (no bound) or at least minReplicas %d", maxReplicas, minReplicas)
	}
	data := scalingData{Addon: ScalingAddonName, AutoscalerImage: facts.AutoscalerImage, MinReplicas: minReplicas, MaxReplicas: maxReplicas}
	return templates.Render(templateFS, ScalingTemplate, data, partials)
}
