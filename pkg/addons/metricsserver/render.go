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

// The built-in addon, named as in kops's bootstrap channel.
const (
	AddonName = "metrics-server.addons.k8s.io"
	AddonID   = "k8s-1.11"
	Template  = "templates/metrics-server.addons.k8s.io/k8s-1.11.yaml.template"
)

// OperatorAddonName holds the MetricsServer object; the managed objects name it in
// addon.kops.k8s.io/handover-to, so switching to the operator hands them over instead of deleting.
const OperatorAddonName = "metrics-server.addons.x-k8s.io"

// Where metrics-server runs and the objects an operator may manage.
const (
	Namespace      = "kube-system"
	Name           = "metrics-server"
	ServiceAccount = Name
	Deployment     = Name
	Service        = Name
	APIServiceName = "v1beta1.metrics.k8s.io"
)

// DefaultVersion is the metrics-server kops's addon template pins.
const DefaultVersion = "0.8.0"

const DefaultImage = "registry.k8s.io/metrics-server/metrics-server:v" + DefaultVersion

// Spec is the MetricsServer object's spec, what spec.metricsServer maps to.
type Spec struct {
	// Version is the channel's package version. It does not change the objects (Image does), so a
	// built-in rendering, which has no version, equals an operator's.
	Version string `json:"version"`
	// Image is pinned and already remapped.
	Image string `json:"image"`
	// Insecure turns off certificate checks between the API server, metrics-server and kubelets.
	// False is kops's secure mode: cert-manager issues the serving certificate (a Certificate among
	// the prerequisites), which only the built-in addon renders; the operator's CRD admits only true.
	Insecure bool `json:"insecure"`
}

type templateData struct {
	Spec Spec
	// Addon labels the prerequisites.
	Addon                  string
	Prerequisites, Managed bool
}

// Render returns the objects an operator may manage as one YAML stream, labelled for the built-in
// addon in every mode so that the same spec gives the same bytes whoever renders it.
func Render(spec Spec) ([]byte, error) {
	return render(spec, templateData{Managed: true})
}

// RenderPrerequisites returns what kops writes itself in every mode, labelled for addon.
func RenderPrerequisites(spec Spec, addon string) ([]byte, error) {
	if addon == "" {
		return nil, fmt.Errorf("rendering metrics-server's prerequisites: no addon name")
	}
	return render(spec, templateData{Addon: addon, Prerequisites: true})
}

// RenderBuiltIn returns exactly RenderPrerequisites(spec, AddonName) followed by Render(spec).
func RenderBuiltIn(spec Spec) ([]byte, error) {
	return render(spec, templateData{Addon: AddonName, Prerequisites: true, Managed: true})
}

func render(spec Spec, data templateData) ([]byte, error) {
	if spec.Image == "" {
		return nil, fmt.Errorf("rendering metrics-server: image is empty")
	}
	data.Spec = spec
	out, err := templates.Render(templateFS, Template, data)
	if err != nil {
		return nil, fmt.Errorf("rendering metrics-server: %w", err)
	}
	return bytes.TrimLeft(out, "\n"), nil
}
