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

package metricsserver

import (
	"bytes"
	"fmt"

	"k8s.io/kops/pkg/templates"
)

// The built-in addon, as kops names it in the bootstrap channel, and the template it renders.
const (
	AddonName = "metrics-server.addons.k8s.io"
	AddonID   = "k8s-1.11"
	Template  = "templates/metrics-server.addons.k8s.io/k8s-1.11.yaml.template"
)

// OperatorAddonName is the addon that holds the MetricsServer object when an operator runs
// metrics-server: the managed objects name it in addon.kops.k8s.io/handover-to, so that switching
// to the operator hands them over rather than deleting them.
const OperatorAddonName = "metrics-server.addons.x-k8s.io"

// Where metrics-server runs and the names of the objects an operator may manage.
const (
	Namespace      = "kube-system"
	Name           = "metrics-server"
	ServiceAccount = Name
	Deployment     = Name
	Service        = Name
	// APIServiceName is the aggregated API metrics-server serves.
	APIServiceName = "v1beta1.metrics.k8s.io"
)

// DefaultVersion is the metrics-server kops pins (its addon template names v0.8.0).
const DefaultVersion = "0.8.0"

// DefaultImage is the image of a cluster that names none, pinned by tag as kops pins it.
const DefaultImage = "registry.k8s.io/metrics-server/metrics-server:v" + DefaultVersion

// Spec is the MetricsServer object's spec, and what spec.metricsServer maps to: which
// metrics-server to run.
type Spec struct {
	// Version is the metrics-server package version, from the kops channel: a semantic version. It
	// does not change the objects, the Image does, so that a built-in rendering (which has no
	// package version) and an operator's are the same.
	Version string `json:"version"`
	// Image is the metrics-server image, pinned by tag or digest and already remapped by
	// spec.assets.
	Image string `json:"image"`
	// Insecure says the API server does not verify metrics-server's serving certificate, nor
	// metrics-server the kubelets'. It must be true: kops's secure mode needs a certificate from
	// cert-manager, which kops does not deploy.
	Insecure bool `json:"insecure"`
}

// templateData is what the template reads.
type templateData struct {
	Spec Spec
	// Addon labels the prerequisites.
	Addon string
	// Prerequisites and Managed select the parts rendered.
	Prerequisites, Managed bool
}

// Render returns the objects an operator may manage (ServiceAccount, Service and Deployment
// metrics-server in kube-system) as one YAML stream ending with one newline. They are labelled for
// the built-in addon in every mode, so that the same spec gives the same bytes whoever renders it.
func Render(spec Spec) ([]byte, error) {
	return render(spec, templateData{Managed: true})
}

// RenderPrerequisites returns what kops writes itself for metrics-server in every mode, labelled
// for addon: its ClusterRoles, ClusterRoleBindings, RoleBinding, APIService and
// PodDisruptionBudget.
func RenderPrerequisites(spec Spec, addon string) ([]byte, error) {
	if addon == "" {
		return nil, fmt.Errorf("rendering metrics-server's prerequisites: no addon name")
	}
	return render(spec, templateData{Addon: addon, Prerequisites: true})
}

// RenderBuiltIn returns the built-in addon: the prerequisites labelled for it, then the managed
// objects, exactly the bytes of RenderPrerequisites(spec, AddonName) and Render(spec) joined.
func RenderBuiltIn(spec Spec) ([]byte, error) {
	return render(spec, templateData{Addon: AddonName, Prerequisites: true, Managed: true})
}

func render(spec Spec, data templateData) ([]byte, error) {
	switch {
	case spec.Image == "":
		return nil, fmt.Errorf("rendering metrics-server: image is empty")
	case !spec.Insecure:
		return nil, fmt.Errorf("rendering metrics-server: only insecure mode is supported: the secure mode needs a serving certificate from cert-manager, which kops does not deploy")
	}
	data.Spec = spec
	out, err := templates.Render(templateFS, Template, data)
	if err != nil {
		return nil, fmt.Errorf("rendering metrics-server: %w", err)
	}
	return bytes.TrimLeft(out, "\n"), nil
}
