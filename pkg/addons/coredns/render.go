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
	"net/netip"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"

	"k8s.io/kops/pkg/templates"
)

// Template is the embedded template Render executes; it also holds the addon's RBAC partial.
const Template = "templates/coredns.addons.k8s.io/k8s-1.12.yaml.template"

// Spec is the CoreDNS object's spec, and what every mode renders from: it says which CoreDNS to run
// and how. Every field is required by the CRD.
type Spec struct {
	// Version is the CoreDNS package version the operator deploys, from the kops channel: a
	// semantic version. It does not change the objects: the Image does, so that a built-in
	// rendering (which has no package version) and the operator's are the same.
	Version string `json:"version"`
	// Image is the CoreDNS image, pinned by tag or digest and already remapped by spec.assets. It
	// is a field of its own, not a patch, so that the CRD can say what it may be.
	Image string `json:"image"`
	// DNSDomain is kubeDNS.domain, an RFC 1123 subdomain; the Corefile already serves it, so it
	// does not change the objects either.
	DNSDomain string `json:"dnsDomain"`
	// DNSIP is kubeDNS.serverIP, the ClusterIP of Service kube-dns.
	DNSIP string `json:"dnsIP"`
	// Corefile is exactly what the built-in addon puts in ConfigMap coredns, at most 64 KiB.
	Corefile string `json:"corefile"`
}

// Facts is what the cluster adds to the spec: the autoscaler's image, the CoreDNS container's
// resources and where its pods may run. DefaultFacts gives a default cluster's facts. kops hands
// them to the operator as JSON (EncodeFacts, ParseFacts), in the names of spec.kubeDNS.
type Facts struct {
	// AutoscalerImage is the cluster-proportional-autoscaler image, already remapped.
	AutoscalerImage string `json:"autoscalerImage"`
	// CPURequest, MemoryRequest and MemoryLimit are quantities ("100m", "70Mi"), written in their
	// canonical form.
	CPURequest    string `json:"cpuRequest"`
	MemoryRequest string `json:"memoryRequest"`
	MemoryLimit   string `json:"memoryLimit"`
	// Tolerations are added to CriticalAddonsOnly.
	Tolerations []corev1.Toleration `json:"tolerations,omitempty"`
	// Affinity is the pods' affinity, if any.
	Affinity *corev1.Affinity `json:"affinity,omitempty"`
	// PodAnnotations annotate the CoreDNS pods.
	PodAnnotations map[string]string `json:"podAnnotations,omitempty"`
}

// DefaultVersion is the CoreDNS version of a cluster that names no image: the one kops's current
// release ships, so that taking over a kops cluster never downgrades its DNS. It is also the
// version of the coredns package of the embedded stable channel (channels/stable), which a test
// holds to it: the built-in addon and the operator run the same CoreDNS.
const DefaultVersion = "1.14.2"

// Defaults of a cluster that sets nothing in spec.kubeDNS. The images are pinned by tag, never
// :latest; the CoreDNS image runs as the distroless nonroot user with cap_net_bind_service on its
// binary, which the rendered securityContext relies on.
const (
	DefaultImage           = "registry.k8s.io/coredns/coredns:v" + DefaultVersion
	DefaultAutoscalerImage = "registry.k8s.io/cpa/cluster-proportional-autoscaler:v1.9.0"
	DefaultCPURequest      = "100m"
	DefaultMemoryRequest   = "70Mi"
	DefaultMemoryLimit     = "170Mi"
)

// DefaultFacts are the facts of a cluster that sets nothing in spec.kubeDNS, with images not
// remapped: what the operator renders when it is told nothing else.
func DefaultFacts() Facts {
	return Facts{
		AutoscalerImage: DefaultAutoscalerImage,
		CPURequest:      DefaultCPURequest,
		MemoryRequest:   DefaultMemoryRequest,
		MemoryLimit:     DefaultMemoryLimit,
	}
}

// Render returns the CoreDNS objects as one YAML stream in a fixed order (CoreDNS's RBAC,
// ConfigMap coredns, Deployment coredns, Service kube-dns, its PodDisruptionBudget, then the
// autoscaler), ending with one newline. The same spec and facts always give the same bytes. It
// checks first what the template would otherwise render empty or broken, naming the field.
func Render(spec Spec, facts Facts) ([]byte, error) {
	data, err := newTemplateData(spec, facts)
	if err != nil {
		return nil, fmt.Errorf("rendering CoreDNS: %w", err)
	}
	return templates.Render(templateFS, Template, data, partials)
}

// templateData is what the template reads: the spec, and the facts with quantities canonical.
type templateData struct {
	Spec  Spec
	Facts Facts
	// DNSIPFamily is the IP family of Spec.DNSIP, as Service kube-dns names it: IPv4 or IPv6.
	DNSIPFamily string
	// Scaling renders the autoscaler and the PodDisruptionBudget, as the built-in addon's.
	Scaling scalingData
}

func newTemplateData(spec Spec, facts Facts) (*templateData, error) {
	ip, err := netip.ParseAddr(spec.DNSIP)
	if err != nil {
		return nil, fmt.Errorf("dnsIP %q is not an IP address", spec.DNSIP)
	}
	family := "IPv4"
	if ip.Is6() && !ip.Is4In6() {
		family = "IPv6"
	}
	switch {
	case spec.Image == "":
		return nil, fmt.Errorf("image is empty")
	case spec.Corefile == "":
		return nil, fmt.Errorf("corefile is empty")
	case facts.AutoscalerImage == "":
		return nil, fmt.Errorf("no autoscaler image")
	}
	for _, q := range []struct {
		name  string
		value *string
	}{{"cpuRequest", &facts.CPURequest}, {"memoryRequest", &facts.MemoryRequest}, {"memoryLimit", &facts.MemoryLimit}} {
		parsed, err := resource.ParseQuantity(*q.value)
		if err != nil {
			return nil, fmt.Errorf("%s %q is not a quantity", q.name, *q.value)
		}
		*q.value = parsed.String()
	}
	scaling := scalingData{Addon: AddonName, AutoscalerImage: facts.AutoscalerImage}
	return &templateData{Spec: spec, Facts: facts, DNSIPFamily: family, Scaling: scaling}, nil
}
