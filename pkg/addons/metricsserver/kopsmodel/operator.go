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

package kopsmodel

import (
	"k8s.io/kops/pkg/addons/metricsserver"
	"k8s.io/kops/pkg/apis/kops"
	"k8s.io/kops/pkg/model"
	"k8s.io/kops/pkg/model/addonapi"
)

// MetricsServerPackage is the channel package carrying the metrics-server versions (and images)
// the operator, and client-side mode, deploy.
const MetricsServerPackage = "metrics-server"

// MetricsServerImageRepository names the image of a channel's metrics-server package that gives
// none, tagged v<version>.
const MetricsServerImageRepository = "registry.k8s.io/metrics-server/metrics-server"

// metricsServerOperator is metrics-server's line of Operators: with spec.metricsServer.enabled and
// the operator flags, kops writes metrics-server's prerequisites (its RBAC, APIService and
// budget: the descriptor's), the operator, and the MetricsServer object; the rest is
// OperatorBuilder's.
func Operator() *addonapi.Operator {
	return &addonapi.Operator{
		Descriptor:    Descriptor(),
		Binary:        "./cmd/metrics-server-operator",
		Packages:      []string{MetricsServerPackage},
		ResourceAddon: metricsserver.OperatorAddonName,
		Mode:          metricsServerMode,
		Instructions:  metricsServerInstructions,
		BuiltIn:       metricsServerBuiltIn(),
	}
}

// metricsServerMode is ServerSide or ClientSide when the cluster runs metrics-server
// (metricsServer.operatorMode, ServerSide by default), "" when it runs none.
func metricsServerMode(spec *kops.ClusterSpec) string {
	switch {
	case !spec.MetricsServerEnabled():
		return ""
	case spec.MetricsServer.OperatorMode == "":
		return kops.OperatorModeServerSide
	}
	return spec.MetricsServer.OperatorMode
}

// metricsServerInstructions are the MetricsServer object's spec and the renderings of it and of
// its marked spec, which the policy is derived from.
func metricsServerInstructions(ctx *model.KopsModelContext) (*addonapi.Instructions, error) {
	spec, err := ObjectSpec(ctx)
	if err != nil {
		return nil, err
	}
	rendered, err := metricsserver.Render(spec)
	if err != nil {
		return nil, err
	}
	marked, err := metricsserver.Render(Marked(spec))
	if err != nil {
		return nil, err
	}
	return &addonapi.Instructions{Spec: spec, Version: spec.Version, Rendered: rendered, Marked: marked, Params: Params(spec)}, nil
}

// ObjectSpec is the spec of the MetricsServer object kops writes: the channel's
// metrics-server version, and spec.metricsServer.image when the cluster names one (a kops user's
// choice is kept, as the built-in addon keeps it) or else the package's image, either remapped.
func ObjectSpec(ctx *model.KopsModelContext) (metricsserver.Spec, error) {
	pkg, err := addonapi.RequirePackage(ctx, MetricsServerPackage, false)
	if err != nil {
		return metricsserver.Spec{}, err
	}
	ms := ctx.Cluster.Spec.MetricsServer
	spec, err := metricsserver.ClusterSpec(ms, ctx.Assets)
	if err != nil {
		return metricsserver.Spec{}, err
	}
	if ms.Image == "" {
		if spec.Image, err = addonapi.PackageImage(pkg, MetricsServerImageRepository, ctx.Assets); err != nil {
			return metricsserver.Spec{}, err
		}
	}
	spec.Version = pkg.Version
	return spec, nil
}

// metricsServerBuiltIn is the built-in metrics-server addon, metrics-server.addons.k8s.io, named
// and versioned as kops's bootstrap channel names it (id k8s-1.11, selector k8s-app=metrics-server).
// It is in the channel while spec.metricsServer.enabled is true; turned off, it leaves the channel
// and channels retires it, deleting what it applied.
func metricsServerBuiltIn() *addonapi.BuiltIn {
	return &addonapi.BuiltIn{
		Name: metricsserver.AddonName, ID: metricsserver.AddonID,
		Selector: map[string]string{"k8s-app": metricsserver.Name},
		Render:   renderMetricsServerBuiltIn,
	}
}

// renderMetricsServerBuiltIn renders metrics-server from spec.metricsServer, or from the
// MetricsServer object kops hands the operator.
func renderMetricsServerBuiltIn(ctx *model.KopsModelContext, fromResource bool) ([]byte, error) {
	spec, err := metricsserver.ClusterSpec(ctx.Cluster.Spec.MetricsServer, ctx.Assets)
	if fromResource {
		object, objectErr := ObjectSpec(ctx)
		spec, err = object, objectErr
	}
	if err != nil {
		return nil, err
	}
	return metricsserver.RenderBuiltIn(spec)
}
