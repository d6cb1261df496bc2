package addons

import (
	"k8s.io/kops/pkg/apis/kops"
	"k8s.io/kops/pkg/model"
	"k8s.io/kops/upup/models"
)

// CoreDNS is the built-in CoreDNS addon, coredns.addons.k8s.io. It stands aside when CoreDNS runs
// through its operator instead.
type CoreDNS struct{}

// Owns names the built-in CoreDNS addon.
func (CoreDNS) Owns() []string { return []string{models.CoreDNSAddonName} }

// Addons renders the CoreDNS manifest from the completed cluster.
func (CoreDNS) Addons(ctx *model.KopsModelContext) ([]*Addon, error) {
	dns := ctx.Cluster.Spec.KubeDNS
	if dns == nil || dns.Provider != kops.DNSProviderCoreDNS || UsesCoreDNSOperator(ctx) {
		return nil, nil
	}
	data, err := models.NewCoreDNSData(ctx.Cluster, ctx.Assets)
	if err != nil {
		return nil, err
	}
	manifest, err := models.RenderCoreDNS(data)
	if err != nil {
		return nil, err
	}
	return []*Addon{newAddon(models.CoreDNSAddonName, models.CoreDNSAddonID, manifest)}, nil
}
