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
	"k8s.io/kops/pkg/crdschema"
	"k8s.io/kops/pkg/operator/confine"
)

// crdFields are every operator's validations and metrics-server's own field.
func crdFields() crdschema.Fields {
	fields := confine.CRDFields(confine.CRDWords{
		Kind: metricsserver.CRDKind, Instructions: metricsserver.Instructions,
		Purpose:        "MetricsServer asks the operator to run metrics-server, the source of the resource metrics API.",
		Subject:        "metrics-server",
		VersionExample: "0.8.0", ImageExample: "registry.k8s.io/metrics-server/metrics-server:v0.8.0",
	})
	fields["spec.insecure"] = crdschema.Field{
		Description: "Must be true: the API server does not verify metrics-server's serving certificate, nor metrics-server the kubelets'. The secure mode needs cert-manager, which kops does not deploy.",
		Rules:       confine.ValidationRule("self", "must be true: the secure mode needs cert-manager, which kops does not deploy"),
	}
	return fields
}
