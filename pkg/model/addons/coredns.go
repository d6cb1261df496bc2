package addons

import (
	"k8s.io/kops/pkg/apis/kops"
	"k8s.io/kops/pkg/model"
	"k8s.io/kops/pkg/operators/coredns"
)

// CoreDNS is the built-in CoreDNS addon, coredns.addons.k8s.io. When CoreDNS runs through its
// operator on the server it is written under the channel's takeOver only (see Addons). In
// client-side mode it carries the expansion of the CoreDNS
// object that the operator would have been given, under the same addon name and id: switching
// between built-in and client-side updates the same objects in place, and switching to the
// operator hands them over exactly as from the built-in addon.
type CoreDNS struct{}

// Owns names the built-in CoreDNS addon.
func (CoreDNS) Owns() []string { return []string{coredns.AddonName} }

// Packages is the CoreDNS package in client-side mode, and with the operator for the takeover
// manifest: its version and image make the CoreDNS object the built-in addon renders.
func (CoreDNS) Packages(ctx *model.KopsModelContext) []string {
	if !ExpandsCoreDNSClientSide(ctx) && !UsesCoreDNSOperator(ctx) {
		return nil
	}
	return []string{CoreDNSPackage}
}

// Addons renders the CoreDNS manifest from the completed cluster. When the operator runs CoreDNS,
// the manifest is still written, as the channel's takeover of the built-in addon: on a cluster
// where kops's own channels applied it (a record that is not ours), channels applies it over kops's
// objects and then retires it, handing Deployment coredns, Service kube-dns, ConfigMap coredns and
// PodDisruptionBudget kube-dns over to the operator's addon exactly as when the built-in addon was
// ours. It renders the spec of the CoreDNS object the operator is given, so that the takeover
// runs the image the operator will run.
func (CoreDNS) Addons(ctx *model.KopsModelContext) ([]*Addon, error) {
	dns := ctx.Cluster.Spec.KubeDNS
	if dns == nil || dns.Provider != kops.DNSProviderCoreDNS {
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
	addon := newAddon(coredns.AddonName, coredns.AddonID, manifest)
	addon.TakeOver = UsesCoreDNSOperator(ctx)
	return []*Addon{addon}, nil
}

// renderCoreDNS renders the CoreDNS objects of spec with the cluster's facts, as every mode does.
func renderCoreDNS(ctx *model.KopsModelContext, spec coredns.Spec) ([]byte, error) {
	facts, err := coredns.ClusterFacts(ctx.Cluster.Spec.KubeDNS, ctx.Assets)
	if err != nil {
		return nil, err
	}
	return coredns.Render(spec, facts)
}

// coreDNSSpec is the spec the built-in addon renders: from spec.kubeDNS, or when CoreDNS goes
// through its CoreDNS object (client-side mode, or the operator's takeover) the spec of the CoreDNS
// object kops hands the operator (the channel's CoreDNS package).
func coreDNSSpec(ctx *model.KopsModelContext) (coredns.Spec, error) {
	if !ExpandsCoreDNSClientSide(ctx) && !UsesCoreDNSOperator(ctx) {
		return coredns.ClusterSpec(ctx.Cluster.Spec.KubeDNS, ctx.Assets)
	}
	version, err := requirePackage(ctx, CoreDNSPackage, false)
	if err != nil {
		return coredns.Spec{}, err
	}
	spec, err := coreDNSObjectSpec(ctx, version)
	if err != nil {
		return coredns.Spec{}, err
	}
	return coredns.Spec(spec), nil
}
