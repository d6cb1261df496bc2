package metricsserveroperator

import (
	"reflect"

	"k8s.io/kops/pkg/crdschema"
	"k8s.io/kops/pkg/model/components/operator"
)

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
