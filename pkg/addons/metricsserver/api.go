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

package metricsserver

import (
	"reflect"

	"k8s.io/kops/pkg/operator"
)

// The MetricsServer custom resource the operator reconciles.
const (
	CRDGroup    = "addons.x-k8s.io"
	CRDVersion  = "v1alpha1"
	CRDKind     = "MetricsServer"
	CRDResource = "metricsservers"
	CRDName     = CRDResource + "." + CRDGroup
	APIVersion  = CRDGroup + "/" + CRDVersion
)

// MetricsServer is the operator's instructions (kopsmodel adds its CRD's validations).
type MetricsServer = operator.Resource[Spec]

// Names are the operator's names (operator.NamesOf). Its own namespace holds only its lease and
// events, so its write rights there stay small and apart from kube-system.
func Names() operator.Names { return operator.NamesOf("metrics-server") }

const (
	// WatchNamespace holds the MetricsServer object and everything the operator manages.
	WatchNamespace = Namespace
	// Instructions is the name of the one MetricsServer object.
	Instructions = "metrics-server"
)

// Descriptor is the operator as it runs (kopsmodel.Descriptor adds what confines it), built afresh
// on each call so no caller can change another's.
func Descriptor() *operator.Descriptor {
	return &operator.Descriptor{
		Subject:        "metrics-server",
		Names:          Names(),
		WatchNamespace: WatchNamespace,
		CRD: operator.CRD{
			Group: CRDGroup, Version: CRDVersion, Resource: CRDResource, Kind: CRDKind,
			Type: reflect.TypeOf(MetricsServer{}),
		},
		Instructions: Instructions,
		// RBAC, APIService and PodDisruptionBudget are kops's (RenderPrerequisites).
		Managed: []operator.Managed{
			{Kind: "Deployment", Name: Deployment},
			{Kind: "Service", Name: Service},
			{Kind: "ServiceAccount", Name: ServiceAccount},
		},
	}
}
