package addons

import (
	"k8s.io/kops/pkg/model"
	"k8s.io/kops/pkg/model/components/metricsserveroperator"
	"k8s.io/kops/pkg/operators/metricsserver"
)

// MetricsServer is the built-in metrics-server addon, metrics-server.addons.k8s.io, named and
// versioned as kops's bootstrap channel names it (id k8s-1.11, selector k8s-app=metrics-server).
// It is in the channel while spec.metricsServer.enabled is true; turned off, it leaves the channel
// and channels retires it, deleting what it applied. With the operator flags it renders the spec
// of the MetricsServer object kops writes, as CoreDNS's does: in client-side mode it carries that
// expansion under the built-in addon's name and id, and while the operator runs it is written under
// the channel's takeOver only, handing the managed objects over to the operator's addon.
type MetricsServer struct{}

// Owns names the built-in metrics-server addon.
func (MetricsServer) Owns() []string { return []string{metricsserver.AddonName} }

// Packages is the metrics-server package when the MetricsServer object is rendered (client-side
// mode, the operator's takeover); the built-in addon alone renders a pinned image.
func (MetricsServer) Packages(ctx *model.KopsModelContext) []string {
	if metricsServerOperator().mode(ctx) == "" {
		return nil
	}
	return []string{MetricsServerPackage}
}

// Addons renders metrics-server from spec.metricsServer when it is enabled, and nothing otherwise.
func (MetricsServer) Addons(ctx *model.KopsModelContext) ([]*Addon, error) {
	if !ctx.Cluster.Spec.MetricsServerEnabled() {
		return nil, nil
	}
	o := metricsServerOperator()
	spec, err := metricsserver.ClusterSpec(ctx.Cluster.Spec.MetricsServer, ctx.Assets)
	if o.mode(ctx) != "" {
		var object metricsserveroperator.MetricsServerSpec
		object, err = metricsServerObjectSpec(ctx)
		spec = metricsserver.Spec(object)
	}
	if err != nil {
		return nil, err
	}
	manifest, err := metricsserver.RenderBuiltIn(spec)
	if err != nil {
		return nil, err
	}
	addon := newAddon(metricsserver.AddonName, metricsserver.AddonID, manifest)
	addon.Spec.Selector = map[string]string{"k8s-app": metricsserver.Name}
	addon.TakeOver = o.UsesOperator(ctx)
	return []*Addon{addon}, nil
}
