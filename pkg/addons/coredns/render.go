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

// Template is the template Render executes; it also holds the addon's RBAC partial.
const Template = "templates/coredns.addons.k8s.io/k8s-1.12.yaml.template"

// Spec is the CoreDNS object's spec, what every mode renders from; the CRD requires every field.
type Spec struct {
	// Version is the channel's package version. It does not change the objects (Image does), so a
	// built-in rendering, which has no version, equals the operator's.
	Version string `json:"version"`
	// Image is pinned and already remapped; a field of its own so the CRD can constrain it.
	Image string `json:"image"`
	// DNSDomain is kubeDNS.domain; the Corefile already serves it, so it does not change the objects.
	DNSDomain string `json:"dnsDomain"`
	// DNSIP is kubeDNS.serverIP, the ClusterIP of Service kube-dns.
	DNSIP string `json:"dnsIP"`
	// Corefile is exactly what the built-in addon puts in ConfigMap coredns.
	Corefile string `json:"corefile"`
	// CorefileChecksum is CorefileChecksum(Corefile), rendered verbatim as the pod template's
	// CorefileChecksumAnnotation: a field, not computed by the renderer, so the admission policy
	// can bind the annotation to it.
	CorefileChecksum string `json:"corefileChecksum"`
}

// Facts is what the cluster adds to the spec, in spec.kubeDNS's names; kops passes them to the
// operator with EncodeFacts.
type Facts struct {
	AutoscalerImage string `json:"autoscalerImage"`
	// CPURequest, MemoryRequest and MemoryLimit are quantities, rendered in canonical form.
	CPURequest    string `json:"cpuRequest"`
	MemoryRequest string `json:"memoryRequest"`
	MemoryLimit   string `json:"memoryLimit"`
	// Tolerations are added to CriticalAddonsOnly.
	Tolerations    []corev1.Toleration `json:"tolerations,omitempty"`
	Affinity       *corev1.Affinity    `json:"affinity,omitempty"`
	PodAnnotations map[string]string   `json:"podAnnotations,omitempty"`
}

// DefaultVersion is the CoreDNS kops's current release ships, so taking over a kops cluster never
// downgrades its DNS; the stable channel's coredns package must match it.
const DefaultVersion = "1.14.2"

// Defaults of a cluster that sets nothing in spec.kubeDNS. The rendered securityContext relies on
// the CoreDNS image running as nonroot with cap_net_bind_service on its binary.
const (
	DefaultImage           = "registry.k8s.io/coredns/coredns:v" + DefaultVersion
	DefaultAutoscalerImage = "registry.k8s.io/cpa/cluster-proportional-autoscaler:v1.9.0"
	DefaultCPURequest      = "100m"
	DefaultMemoryRequest   = "70Mi"
	DefaultMemoryLimit     = "170Mi"
)

// DefaultFacts are the facts of a cluster that sets nothing in spec.kubeDNS, images not remapped.
func DefaultFacts() Facts {
	return Facts{
		AutoscalerImage: DefaultAutoscalerImage,
		CPURequest:      DefaultCPURequest,
		MemoryRequest:   DefaultMemoryRequest,
		MemoryLimit:     DefaultMemoryLimit,
	}
}

// Render returns the CoreDNS objects as one deterministic YAML stream, or an error naming a field
// the template would render empty or broken.
func Render(spec Spec, facts Facts) ([]byte, error) {
	data, err := newTemplateData(spec, facts)
	if err != nil {
		return nil, fmt.Errorf("rendering CoreDNS: %w", err)
	}
	return templates.Render(templateFS, Template, data, partials)
}

// templateData is what the template reads; the facts' quantities are canonical.
type templateData struct {
	Spec  Spec
	Facts Facts
	// DNSIPFamily is IPv4 or IPv6, as Service kube-dns names it.
	DNSIPFamily string
	Scaling     scalingData
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
	// Every mode renders only a checksum that matches, so no mode can roll out a stale Corefile.
	if err := CheckCorefileChecksum(spec); err != nil {
		return nil, err
	}
	if _, ok := facts.PodAnnotations[CorefileChecksumAnnotation]; ok {
		return nil, fmt.Errorf("podAnnotations sets %s, which CoreDNS's rendering writes itself: remove it", CorefileChecksumAnnotation)
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
	scaling := scalingData{Addon: AddonName, AutoscalerImage: facts.AutoscalerImage, MinReplicas: BuiltInMinReplicas}
	return &templateData{Spec: spec, Facts: facts, DNSIPFamily: family, Scaling: scaling}, nil
}
