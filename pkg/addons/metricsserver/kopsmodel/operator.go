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

// MetricsServerPackage carries the versions the operator and client-side mode deploy.
const MetricsServerPackage = "metrics-server"

// MetricsServerImageRepository names the image of a metrics-server package that gives none.
const MetricsServerImageRepository = "registry.k8s.io/metrics-server/metrics-server"

// Operator is metrics-server's line of the operator registry; its prerequisites come with the
// descriptor.
func Operator() *addonapi.Operator {
	return &addonapi.Operator{
		Descriptor:    Descriptor(),
		Binary:        "./cmd/metrics-server-operator",
		Packages:      []string{MetricsServerPackage},
		ResourceAddon: metricsserver.OperatorAddonName,
		Mode:          metricsServerMode,
		Instructions:  metricsServerInstructions,
		BuiltIn:       metricsServerBuiltIn(),
		BuiltInOnly:   secureKeptBuiltIn,
	}
}

// secureKeptBuiltIn: the operator's CRD admits only insecure: true, so kops's secure mode (insecure
// unset or false) stays built in, as without the operator flags.
func secureKeptBuiltIn(spec *kops.ClusterSpec) string {
	if !spec.MetricsServerSecure() {
		return ""
	}
	return "spec.metricsServer.insecure is unset or false (kops's secure mode): metrics-server stays built in, for its operator runs only the insecure mode (insecure: true)"
}

// metricsServerMode is metricsServer.operatorMode (default ServerSide), or "" when it runs none.
func metricsServerMode(spec *kops.ClusterSpec) string {
	switch {
	case !spec.MetricsServerEnabled():
		return ""
	case spec.MetricsServer.OperatorMode == "":
		return kops.OperatorModeServerSide
	}
	return spec.MetricsServer.OperatorMode
}

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

// ObjectSpec is the spec of the MetricsServer object kops writes. A spec.metricsServer.image the
// user names is kept, as the built-in addon keeps it; otherwise the package's image is used.
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

// metricsServerBuiltIn is named and selected as in kops's bootstrap channel. Turned off, it leaves
// the channel and channels retires it, deleting what it applied.
func metricsServerBuiltIn() *addonapi.BuiltIn {
	return &addonapi.BuiltIn{
		Name: metricsserver.AddonName, ID: metricsserver.AddonID,
		Selector: map[string]string{"k8s-app": metricsserver.Name},
		Render:   renderMetricsServerBuiltIn,
		// kops's bootstrap channel: the secure mode's Certificate is issued by the addon's Issuer.
		NeedsPKI: (*kops.ClusterSpec).MetricsServerSecure,
	}
}

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
