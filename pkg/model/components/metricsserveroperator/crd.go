package metricsserveroperator

import (
	"reflect"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

	"k8s.io/kops/pkg/crdschema"
	"k8s.io/kops/pkg/model/components/operator"
)

// crd is the MetricsServer kind, and what kops generates its CRD from: every field typed and
// bounded, nothing preserved that the operator does not declare.
func crd() operator.CRD {
	return operator.CRD{
		Group: CRDGroup, Version: CRDVersion, Resource: CRDResource, Kind: CRDKind,
		Type: reflect.TypeOf(MetricsServer{}), Fields: crdFields(), Columns: crdColumns(),
	}
}

func crdFields() crdschema.Fields {
	maxLen := func(n int64) crdschema.Field { return crdschema.Field{MaxLength: &n} }
	zero := 0.0
	rule := func(rule, message string) []apiextensionsv1.ValidationRule {
		return []apiextensionsv1.ValidationRule{{Rule: rule, Message: message}}
	}
	with := func(f crdschema.Field, change func(*crdschema.Field)) crdschema.Field { change(&f); return f }
	maxItems := func(n int64) *int64 { return &n }
	return crdschema.Fields{
		"": {
			Description: "MetricsServer asks the operator to run metrics-server, the source of the resource metrics API.",
			Rules: rule("self.metadata.name == '"+Instructions+"'",
				"the operator manages one MetricsServer object, named "+Instructions),
		},
		"spec": {Refused: []crdschema.Refused{
			{Name: "channel", Type: reflect.TypeOf(""), Why: "the operator deploys the version and image named here and fetches nothing"},
			{Name: "patches", Type: reflect.TypeOf([]struct{}{}), Why: "the metrics-server image is spec.image, and nothing else of what the operator creates can be patched"},
		}},
		"spec.version": with(maxLen(64), func(f *crdschema.Field) {
			f.Description = "The metrics-server version to run, a semantic version such as 0.8.0."
			f.Pattern = crdschema.SemverPattern
		}),
		"spec.image": with(maxLen(512), func(f *crdschema.Field) {
			f.Description = "The metrics-server image, pinned by a version tag or a sha256 digest, such as registry.k8s.io/metrics-server/metrics-server:v0.8.0."
			f.Pattern = crdschema.PinnedImagePattern
			f.Rules = rule("!self.endsWith(':latest')", "must be pinned by a version tag or a digest, not the mutable tag latest")
		}),
		"spec.insecure": {
			Description: "Must be true: the API server does not verify metrics-server's serving certificate, nor metrics-server the kubelets'. The secure mode needs cert-manager, which kops does not deploy.",
			Rules:       rule("self", "must be true: the secure mode needs cert-manager, which kops does not deploy"),
		},
		"status.errors":   {MaxItems: maxItems(16)},
		"status.errors[]": maxLen(1024),
		"status.phase":    maxLen(64),
		"status.observedGeneration": {
			Description: "The generation of the object the status describes.",
			Minimum:     &zero,
		},
		"status.conditions": {
			Description: "Available, Progressing and Degraded, from the metrics-server Deployment and the last reconcile.",
			MaxItems:    maxItems(8),
			MapKeys:     []string{"type"},
		},
		"status.conditions[].type":               maxLen(316),
		"status.conditions[].status":             with(maxLen(7), func(f *crdschema.Field) { f.Enum = []string{"True", "False", "Unknown"} }),
		"status.conditions[].observedGeneration": {Minimum: &zero},
		"status.conditions[].lastTransitionTime": maxLen(64),
		"status.conditions[].reason":             maxLen(1024),
		"status.conditions[].message":            maxLen(1024),
	}
}

// crdColumns are kubectl get's columns for MetricsServer objects.
func crdColumns() []apiextensionsv1.CustomResourceColumnDefinition {
	return []apiextensionsv1.CustomResourceColumnDefinition{
		{Name: "Version", Type: "string", JSONPath: ".spec.version"},
		{Name: "Healthy", Type: "boolean", JSONPath: ".status.healthy"},
		{Name: "Age", Type: "date", JSONPath: ".metadata.creationTimestamp"},
	}
}
