package app

import (
	"fmt"

	"k8s.io/apimachinery/pkg/api/resource"

	"k8s.io/kops/pkg/apis/kops"
	"k8s.io/kops/pkg/model/components/corednsoperator"
	"k8s.io/kops/pkg/operators/coredns"
)

// This file is the operator's only tie to the renderer: the objects it applies are those of
// pkg/operators/coredns, the one renderer kops's built-in addon and client-side mode use too, for
// the same spec, which is what the admission policy admits.

// Spec is the CoreDNS object's spec.
type Spec = corednsoperator.CoreDNSSpec

// Facts are what the CoreDNS object does not say and the rendering needs: the resources of the
// CoreDNS container, kops's defaults unless the operator is told otherwise (its flags).
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

// render returns the manifest kops renders for spec: the Corefile and image are taken as they
// are, never derived again.
func render(spec Spec, facts Facts) ([]byte, error) {
	f := coredns.DefaultFacts()
	f.CPURequest = facts.CPURequest.String()
	f.MemoryRequest = facts.MemoryRequest.String()
	f.MemoryLimit = facts.MemoryLimit.String()
	manifest, err := coredns.Render(coredns.Spec(spec), f)
	if err != nil {
		return nil, fmt.Errorf("CoreDNS %s: %w", spec.Version, err)
	}
	return manifest, nil
}
