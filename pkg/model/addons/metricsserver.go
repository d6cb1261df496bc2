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

package addons

import (
	"k8s.io/kops/pkg/addons/metricsserver"
	"k8s.io/kops/pkg/model"
)

// metricsServerBuiltIn is the built-in metrics-server addon, metrics-server.addons.k8s.io, named
// and versioned as kops's bootstrap channel names it (id k8s-1.11, selector k8s-app=metrics-server).
// It is in the channel while spec.metricsServer.enabled is true; turned off, it leaves the channel
// and channels retires it, deleting what it applied.
func metricsServerBuiltIn() *BuiltIn {
	return &BuiltIn{
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
		object, objectErr := metricsServerObjectSpec(ctx)
		spec, err = object, objectErr
	}
	if err != nil {
		return nil, err
	}
	return metricsserver.RenderBuiltIn(spec)
}
