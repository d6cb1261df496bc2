package addons

import (
	"k8s.io/kops/pkg/model"
	"k8s.io/kops/pkg/operators/metricsserver"
)

// MetricsServer is the built-in metrics-server addon, metrics-server.addons.k8s.io, named and
// versioned as kops's bootstrap channel names it (id k8s-1.11, selector k8s-app=metrics-server).
// It is in the channel while spec.metricsServer.enabled is true; turned off, it leaves the channel
// and channels retires it, deleting what it applied. Until an operator of metrics-server is wired
// in, the built-in addon runs it whatever the feature flags say.
type MetricsServer struct{}

// Owns names the built-in metrics-server addon.
func (MetricsServer) Owns() []string { return []string{metricsserver.AddonName} }

// Packages is empty: the built-in addon renders a pinned image, no channel package.
func (MetricsServer) Packages(*model.KopsModelContext) []string { return nil }

// Addons renders metrics-server from spec.metricsServer when it is enabled, and nothing otherwise.
func (MetricsServer) Addons(ctx *model.KopsModelContext) ([]*Addon, error) {
	if !ctx.Cluster.Spec.MetricsServerEnabled() {
		return nil, nil
	}
	spec, err := metricsserver.ClusterSpec(ctx.Cluster.Spec.MetricsServer, ctx.Assets)
	if err != nil {
		return nil, err
	}
	manifest, err := metricsserver.RenderBuiltIn(spec)
	if err != nil {
		return nil, err
	}
	addon := newAddon(metricsserver.AddonName, metricsserver.AddonID, manifest)
	addon.Spec.Selector = map[string]string{"k8s-app": metricsserver.Name}
	return []*Addon{addon}, nil
}
