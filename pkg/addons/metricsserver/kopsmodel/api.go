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

// Package metricsserveroperator describes, as data, the operator that runs metrics-server from a
// MetricsServer object: the custom resource's Go type and validations (kops generates its CRD
// from them) and the operator's Descriptor with its rights table, from which package operator
// generates every Role, binding and admission policy. The objects it reconciles are rendered by
// pkg/addons/metricsserver, the renderer every mode shares.
package kopsmodel

import (
	"reflect"

	"k8s.io/kops/pkg/crdschema"
	"k8s.io/kops/pkg/operator"
)

// The MetricsServer custom resource the operator reconciles.
const (
	CRDGroup    = "addons.x-k8s.io"
	CRDVersion  = "v1alpha1"
	CRDKind     = "MetricsServer"
	CRDResource = "metricsservers"
	CRDName     = CRDResource + "." + CRDGroup
	// APIVersion is the group/version of the MetricsServer kind.
	APIVersion = CRDGroup + "/" + CRDVersion
)

// MetricsServer is the operator's instructions (crdFields adds its CRD's validations).
type MetricsServer = operator.Resource[MetricsServerSpec]

// MetricsServerSpec says which metrics-server to run: the fields of the renderer's Spec
// (pkg/addons/metricsserver), so that the operator passes its object's spec as is.
type MetricsServerSpec struct {
	// Version is the metrics-server package version, from the kops channel: a semantic version.
	Version string `json:"version"`
	// Image is the metrics-server image, pinned by tag or digest and already remapped by
	// spec.assets.
	Image string `json:"image"`
	// Insecure is spec.metricsServer.insecure, which must be true: the API server does not verify
	// metrics-server's certificate, nor metrics-server the kubelets'.
	Insecure bool `json:"insecure"`
}

// crd is the MetricsServer kind, and what kops generates its CRD from: every field typed and
// bounded, nothing preserved that the operator does not declare.
func crd() operator.CRD {
	return operator.CRD{
		Group: CRDGroup, Version: CRDVersion, Resource: CRDResource, Kind: CRDKind,
		Type: reflect.TypeOf(MetricsServer{}), Fields: crdFields(), Columns: operator.CRDColumns(),
	}
}

// crdFields are every operator's validations (operator.CRDFields) and metrics-server's own field.
func crdFields() crdschema.Fields {
	fields := operator.CRDFields(operator.CRDWords{
		Kind: CRDKind, Instructions: Instructions,
		Purpose:        "MetricsServer asks the operator to run metrics-server, the source of the resource metrics API.",
		Subject:        "metrics-server",
		VersionExample: "0.8.0", ImageExample: "registry.k8s.io/metrics-server/metrics-server:v0.8.0",
	})
	fields["spec.insecure"] = crdschema.Field{
		Description: "Must be true: the API server does not verify metrics-server's serving certificate, nor metrics-server the kubelets'. The secure mode needs cert-manager, which kops does not deploy.",
		Rules:       operator.ValidationRule("self", "must be true: the secure mode needs cert-manager, which kops does not deploy"),
	}
	return fields
}
