package addons

import (
	"k8s.io/kops/pkg/apis/kops"
	"k8s.io/kops/pkg/model"
	"k8s.io/kops/pkg/operators/coredns"
)

// CoreDNS is the built-in CoreDNS addon, coredns.addons.k8s.io. It stands aside when CoreDNS runs
// through its operator on the server. In client-side mode it carries the expansion of the CoreDNS
// object that the operator would have been given, under the same addon name and id: switching
// between built-in and client-side updates the same objects in place, and switching to the
// operator hands them over exactly as from the built-in addon.
type CoreDNS struct{}

// Owns names the built-in CoreDNS addon.
func (CoreDNS) Owns() []string { return []string{coredns.AddonName} }

// Packages is the CoreDNS package in client-side mode: its version and image make the CoreDNS
// object that mode expands.
func (CoreDNS) Packages(ctx *model.KopsModelContext) []string {
	if !ExpandsCoreDNSClientSide(ctx) {
		return nil
	}
	return []string{CoreDNSPackage}
}

// Addons renders the CoreDNS manifest from the completed cluster.
func (CoreDNS) Addons(ctx *model.KopsModelContext) ([]*Addon, error) {
	dns := ctx.Cluster.Spec.KubeDNS
	if dns == nil || dns.Provider != kops.DNSProviderCoreDNS || UsesCoreDNSOperator(ctx) {
		return nil, nil
	}
	spec, err := coreDNSSpec(ctx)
	if err != nil {
		return nil, err
	}
	manifest, err := renderCoreDNS(ctx, spec)
	if err != nil {
		return nil, err
	}
	return []*Addon{newAddon(coredns.AddonName, coredns.AddonID, manifest)}, nil
}

// renderCoreDNS renders the CoreDNS objects of spec with the cluster's facts, as every mode does.
func renderCoreDNS(ctx *model.KopsModelContext, spec coredns.Spec) ([]byte, error) {
	facts, err := coredns.ClusterFacts(ctx.Cluster.Spec.KubeDNS, ctx.Assets)
	if err != nil {
		return nil, err
	}
	return coredns.Render(spec, facts)
}

// coreDNSSpec is the spec the built-in addon renders: from spec.kubeDNS, or in client-side mode the
// spec of the CoreDNS object kops would hand the operator (the channel's CoreDNS package).
func coreDNSSpec(ctx *model.KopsModelContext) (coredns.Spec, error) {
	if !ExpandsCoreDNSClientSide(ctx) {
		return coredns.ClusterSpec(ctx.Cluster.Spec.KubeDNS, ctx.Assets)
	}
	version, err := requirePackage(ctx, CoreDNSPackage, false)
	if err != nil {
		return coredns.Spec{}, err
	}
	resource, err := coreDNSResource(ctx, version)
	if err != nil {
		return coredns.Spec{}, err
	}
	return coredns.Spec(resource.Spec), nil
}
