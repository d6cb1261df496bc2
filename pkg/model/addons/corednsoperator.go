package addons

import (
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/yaml"

	"k8s.io/kops/channels/pkg/channels"
	"k8s.io/kops/pkg/apis/kops"
	"k8s.io/kops/pkg/assets"
	"k8s.io/kops/pkg/featureflag"
	"k8s.io/kops/pkg/model"
	components "k8s.io/kops/pkg/model/components/coredns"
	"k8s.io/kops/pkg/model/components/corednsoperator"
	"k8s.io/kops/pkg/operators/coredns"
)

// The channel packages and addons of CoreDNS run by its operator.
const (
	// CoreDNSPackage carries the CoreDNS versions the operator can deploy.
	CoreDNSPackage = "coredns"
	// CoreDNSResourceAddonName is the addon holding the CoreDNS object, the operator's instructions.
	CoreDNSResourceAddonName = "coredns.addons.x-k8s.io"
)

// CoreDNSOperator deploys CoreDNS through the cluster-addons operator, in four addons applied in
// order: the RBAC CoreDNS needs (pre-created by kops, so the operator needs no RBAC rights), the
// autoscaler and PodDisruptionBudget of CoreDNS (kops's too: the operator may write neither), the
// operator package with the rights generated from corednsoperator.Rights, and the CoreDNS object.
type CoreDNSOperator struct{}

// Owns names the four addons.
func (CoreDNSOperator) Owns() []string {
	return []string{coredns.RBACAddonName, coredns.ScalingAddonName, corednsoperator.AddonName, CoreDNSResourceAddonName}
}

// Packages are the operator package and the CoreDNS versions, when the operator runs.
func (CoreDNSOperator) Packages(ctx *model.KopsModelContext) []string {
	if !UsesCoreDNSOperator(ctx) {
		return nil
	}
	return []string{corednsoperator.AddonName, CoreDNSPackage}
}

// Addons returns nothing unless the cluster runs CoreDNS through its operator.
func (CoreDNSOperator) Addons(ctx *model.KopsModelContext) ([]*Addon, error) {
	if !UsesCoreDNSOperator(ctx) {
		return nil, nil
	}
	operator, err := requirePackage(ctx, corednsoperator.AddonName, true)
	if err != nil {
		return nil, err
	}
	version, err := requirePackage(ctx, CoreDNSPackage, false)
	if err != nil {
		return nil, err
	}
	rbac, err := coredns.RenderRBAC()
	if err != nil {
		return nil, err
	}
	scaling, err := renderScaling(ctx)
	if err != nil {
		return nil, err
	}
	resource, err := coreDNSResource(ctx, version)
	if err != nil {
		return nil, err
	}
	policy, err := operatorPolicy(ctx, resource.Spec)
	if err != nil {
		return nil, err
	}
	clusterFacts, err := operatorClusterFacts(ctx)
	if err != nil {
		return nil, err
	}
	operatorManifest, err := buildOperatorManifest(operator, ctx.Assets, policy, clusterFacts)
	if err != nil {
		return nil, err
	}
	// The operator's namespace is one kops creates: its default ServiceAccount gets no token.
	if operatorManifest, err = lockDefaultServiceAccounts(operatorManifest); err != nil {
		return nil, err
	}
	resourceManifest, err := yaml.Marshal(resource)
	if err != nil {
		return nil, err
	}
	return []*Addon{
		newAddon(coredns.RBACAddonName, coredns.RBACAddonID, rbac),
		newAddon(coredns.ScalingAddonName, coredns.ScalingAddonID, scaling),
		newAddon(corednsoperator.AddonName, operator.Version, operatorManifest),
		newAddon(CoreDNSResourceAddonName, version.Version, resourceManifest),
	}, nil
}

// renderScaling renders the autoscaler and the PodDisruptionBudget the built-in addon would, as an
// addon of their own: the objects a switch of mode moves in place. The autoscaler may set no more
// replicas than the operator's admission policy admits on Deployment coredns, or it would lock the
// operator out of every write to it.
func renderScaling(ctx *model.KopsModelContext) ([]byte, error) {
	facts, err := coredns.ClusterFacts(ctx.Cluster.Spec.KubeDNS, ctx.Assets)
	if err != nil {
		return nil, err
	}
	return coredns.RenderScaling(facts, corednsoperator.MaxReplicas)
}

// coreDNSResource renders the CoreDNS object from the completed cluster and the channel's CoreDNS
// package. Everything the CRD would refuse is refused here first, with the field of the cluster
// spec to fix, so that it never reaches the API server at apply time.
func coreDNSResource(ctx *model.KopsModelContext, version *channels.Package) (*corednsoperator.CoreDNS, error) {
	dns := ctx.Cluster.Spec.KubeDNS
	corefile := components.Corefile(dns)
	if len(corefile) > corednsoperator.MaxCorefileBytes {
		where := "spec.kubeDNS.externalCoreFile"
		if dns.ExternalCoreFile == "" {
			where = "spec.kubeDNS (the Corefile generated from it)"
		}
		return nil, fmt.Errorf("%s: %d bytes is too long: the CoreDNS operator accepts a Corefile of at most %d bytes (64 KiB)",
			where, len(corefile), corednsoperator.MaxCorefileBytes)
	}
	image, err := CoreDNSOperatorImage(version, ctx.Assets)
	if err != nil {
		return nil, err
	}
	return &corednsoperator.CoreDNS{
		TypeMeta: metav1.TypeMeta{APIVersion: corednsoperator.APIVersion, Kind: "CoreDNS"},
		ObjectMeta: metav1.ObjectMeta{
			Name:      corednsoperator.CoreDNSResource,
			Namespace: corednsoperator.WatchNamespace,
			Labels:    map[string]string{LabelAddonName: CoreDNSResourceAddonName, LabelManagedBy: "kops"},
		},
		Spec: corednsoperator.CoreDNSSpec{
			Version:   version.Version,
			Image:     image,
			DNSDomain: dns.Domain,
			DNSIP:     dns.ServerIP,
			Corefile:  corefile,
		},
	}, nil
}

// CoreDNSImageRepository is where CoreDNS publishes its images, tagged v<version>; it names the
// image of a channel's coredns package that gives none.
const CoreDNSImageRepository = "registry.k8s.io/coredns/coredns"

// CoreDNSOperatorImage is the CoreDNS image the operator runs: the channel package's image, or
// the upstream image of the package's version, remapped like every other image kops deploys.
// kops always names it, so that what runs is pinned by kops and never the operator's choice.
func CoreDNSOperatorImage(p *channels.Package, remapper *assets.Remapper) (string, error) {
	image := p.Image
	if image == "" {
		image = CoreDNSImageRepository + ":v" + p.Version
	}
	remapped, err := remapper.RemapImage(image)
	if err != nil {
		return "", fmt.Errorf("package %s version %s: %w", p.Name, p.Version, err)
	}
	return remapped, nil
}

// operatorPolicy is the admission policy confining the operator, derived from what the one
// renderer gives for the CoreDNS object kops hands the operator: what kops would deploy itself is
// what the operator may deploy.
func operatorPolicy(ctx *model.KopsModelContext, spec corednsoperator.CoreDNSSpec) ([]byte, error) {
	rendered, err := renderCoreDNS(ctx, coredns.Spec(spec))
	if err != nil {
		return nil, err
	}
	marked, err := renderCoreDNS(ctx, coredns.Spec(corednsoperator.Marked(spec)))
	if err != nil {
		return nil, err
	}
	scope, err := corednsoperator.ScopeFromManifest(rendered, marked, spec)
	if err != nil {
		return nil, err
	}
	return corednsoperator.PolicyManifest(scope)
}

// UsesCoreDNSOperator says whether CoreDNS is deployed through its operator on the server: the
// cluster asks for CoreDNS, UseAddonOperators is active (with the ClusterAddons it requires), and
// kubeDNS.operatorMode is ServerSide (the default).
func UsesCoreDNSOperator(ctx *model.KopsModelContext) bool {
	return coreDNSOperatorMode(ctx) == kops.OperatorModeServerSide
}

// ExpandsCoreDNSClientSide says whether kops expands the CoreDNS object itself
// (kubeDNS.operatorMode ClientSide with the operator flags on): the channel then carries the
// expanded objects as the built-in addon, and no operator runs.
func ExpandsCoreDNSClientSide(ctx *model.KopsModelContext) bool {
	return coreDNSOperatorMode(ctx) == kops.OperatorModeClientSide
}

// coreDNSOperatorMode is ServerSide or ClientSide when CoreDNS goes through its CoreDNS object,
// "" when it is built in (no CoreDNS, or the operator flags off: operatorMode is then ignored).
func coreDNSOperatorMode(ctx *model.KopsModelContext) string {
	dns := ctx.Cluster.Spec.KubeDNS
	if dns == nil || dns.Provider != kops.DNSProviderCoreDNS ||
		!ctx.FeatureFlags.Active(featureflag.UseAddonOperators) {
		return ""
	}
	if dns.OperatorMode == "" {
		return kops.OperatorModeServerSide
	}
	return dns.OperatorMode
}

func requirePackage(ctx *model.KopsModelContext, name string, needManifest bool) (*channels.Package, error) {
	p := ctx.Packages[name]
	switch {
	case p == nil:
		return nil, fmt.Errorf("channel package %q was not loaded", name)
	case needManifest && p.Manifest == nil:
		return nil, fmt.Errorf("channel package %q version %s has no manifest (packages/%s/%s/manifest.yaml next to the channel)", name, p.Version, name, p.Version)
	}
	return p, nil
}
