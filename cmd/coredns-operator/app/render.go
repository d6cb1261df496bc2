package app

import (
	"fmt"

	"k8s.io/apimachinery/pkg/api/resource"

	"k8s.io/kops/pkg/apis/kops"
	"k8s.io/kops/pkg/model/components/corednsoperator"
	"k8s.io/kops/upup/models"
)

// This file is the operator's only tie to the renderer: the objects it applies are those kops's
// built-in CoreDNS addon renders for the same spec, which is what the admission policy admits.

// Spec is the CoreDNS object's spec.
type Spec = corednsoperator.CoreDNSSpec

// Facts are what the CoreDNS object does not say and the rendering needs: the resources of the
// CoreDNS container, kops's defaults unless the operator is told otherwise.
type Facts struct {
	CPURequest, MemoryRequest, MemoryLimit resource.Quantity
}

// DefaultFacts are kops's defaults for spec.kubeDNS, the values the policy is derived from.
func DefaultFacts() Facts {
	return Facts{
		CPURequest:    resource.MustParse(kops.DefaultDNSCPURequest),
		MemoryRequest: resource.MustParse(kops.DefaultDNSMemoryRequest),
		MemoryLimit:   resource.MustParse(kops.DefaultDNSMemoryLimit),
	}
}

// render returns the manifest the built-in addon renders for spec: the Corefile and image are
// taken as they are, never derived again.
func render(spec Spec, facts Facts) ([]byte, error) {
	cluster := &kops.Cluster{Spec: kops.ClusterSpec{KubeDNS: &kops.KubeDNSConfig{
		Provider:      kops.DNSProviderCoreDNS,
		Domain:        spec.DNSDomain,
		ServerIP:      spec.DNSIP,
		CPURequest:    &facts.CPURequest,
		MemoryRequest: &facts.MemoryRequest,
		MemoryLimit:   &facts.MemoryLimit,
	}}}
	manifest, err := models.RenderCoreDNS(&models.CoreDNSData{
		Cluster:         cluster,
		Corefile:        spec.Corefile,
		Image:           spec.Image,
		AutoscalerImage: models.DefaultCoreDNSAutoscalerImage,
	})
	if err != nil {
		return nil, fmt.Errorf("rendering CoreDNS %s: %w", spec.Version, err)
	}
	return manifest, nil
}
