package corednsoperator

import (
	"fmt"
	"reflect"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

	"k8s.io/kops/pkg/crdschema"
	"k8s.io/kops/pkg/model/components/operator"
)

// The CoreDNS CRD kops generates from the CoreDNS type (package crdschema): the schema says
// exactly what the operator accepts, every field typed and bounded, nothing preserved that it does
// not declare. Bounds on strings also keep the CEL rules' cost low. isIP needs Kubernetes 1.31: a
// CEL library reaches new CRDs one minor after it arrives, hence the channels' kubernetesVersion.

// Patterns of the spec's strings. The API server matches them with Go's regexp.
const (
	// versionPattern is a semantic version: it names a version, never a path.
	versionPattern = `^(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)(-[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?(\+[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?$`
	// imagePattern is kops's image grammar, pinned by a tag or a sha256 digest.
	imagePattern = `^(([a-zA-Z0-9]([a-zA-Z0-9-]*[a-zA-Z0-9])?(\.[a-zA-Z0-9]([a-zA-Z0-9-]*[a-zA-Z0-9])?)*|\[[0-9a-fA-F:.]+\])(:[0-9]+)?/)?[a-z0-9]+(([._]|__|-+)[a-z0-9]+)*(/[a-z0-9]+(([._]|__|-+)[a-z0-9]+)*)*(:[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}(@sha256:[0-9a-f]{64})?|@sha256:[0-9a-f]{64})$`
	// dnsDomainPattern is an RFC 1123 subdomain: it goes into the Corefile, so no newlines,
	// braces or spaces.
	dnsDomainPattern = `^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$`
)

// crd is the CoreDNS kind, and what kops generates its CRD from.
func crd() operator.CRD {
	return operator.CRD{
		Group: CRDGroup, Version: "v1alpha1", Resource: CRDResource, Kind: "CoreDNS",
		Type: reflect.TypeOf(CoreDNS{}), Fields: crdFields(), Columns: crdColumns(),
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
			Description: "CoreDNS asks the operator to run CoreDNS as the cluster's DNS service.",
			Rules: rule("self.metadata.name == '"+CoreDNSResource+"'",
				"the operator manages one CoreDNS object, named "+CoreDNSResource),
		},
		"spec": {Refused: []crdschema.Refused{
			{Name: "channel", Type: reflect.TypeOf(""), Why: "the operator deploys the version and image named here and fetches nothing"},
			{Name: "patches", Type: reflect.TypeOf([]struct{}{}), Why: "the CoreDNS image is spec.image, and nothing else of what the operator creates can be patched"},
		}},
		"spec.version": with(maxLen(64), func(f *crdschema.Field) {
			f.Description = "The CoreDNS version to run, a semantic version such as 1.12.4."
			f.Pattern = versionPattern
		}),
		"spec.image": with(maxLen(512), func(f *crdschema.Field) {
			f.Description = "The CoreDNS image, pinned by a version tag or a sha256 digest, such as registry.k8s.io/coredns/coredns:v1.12.4."
			f.Pattern = imagePattern
			f.Rules = rule("!self.endsWith(':latest')", "must be pinned by a version tag or a digest, not the mutable tag latest")
		}),
		"spec.dnsDomain": with(maxLen(253), func(f *crdschema.Field) {
			f.Description = "The cluster's DNS domain, an RFC 1123 subdomain such as cluster.local."
			f.Pattern = dnsDomainPattern
		}),
		"spec.dnsIP": with(maxLen(45), func(f *crdschema.Field) {
			f.Description = "The ClusterIP of the DNS service, an IPv4 or IPv6 address."
			f.Rules = rule("isIP(self)", "must be an IPv4 or IPv6 address (no leading zeros, zone or IPv4-mapped IPv6 form)")
		}),
		"spec.corefile": with(maxLen(MaxCorefileBytes), func(f *crdschema.Field) {
			f.Description = "A complete Corefile replacing the default one, at most 64 KiB."
			// maxLength counts characters; this counts bytes.
			f.Rules = rule(fmt.Sprintf("bytes(self).size() <= %d", MaxCorefileBytes),
				fmt.Sprintf("must be at most %d bytes (64 KiB)", MaxCorefileBytes))
		}),
		"status.errors":   {MaxItems: maxItems(16)},
		"status.errors[]": maxLen(1024),
		"status.phase":    maxLen(64),
		"status.observedGeneration": {
			Description: "The generation of the object the status describes.",
			Minimum:     &zero,
		},
		"status.conditions": {
			Description: "Available, Progressing and Degraded, from the CoreDNS Deployment and the last reconcile.",
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

// crdColumns are kubectl get's columns for CoreDNS objects.
func crdColumns() []apiextensionsv1.CustomResourceColumnDefinition {
	return []apiextensionsv1.CustomResourceColumnDefinition{
		{Name: "Version", Type: "string", JSONPath: ".spec.version"},
		{Name: "Healthy", Type: "boolean", JSONPath: ".status.healthy"},
		{Name: "Age", Type: "date", JSONPath: ".metadata.creationTimestamp"},
	}
}

// CustomResourceDefinition is the CoreDNS CRD kops renders into the bootstrap channel.
func CustomResourceDefinition() (*apiextensionsv1.CustomResourceDefinition, error) {
	return Descriptor().CustomResourceDefinition()
}

// CustomResourceDefinitionManifest is that CRD as YAML, as kops writes it (without the addon's labels).
func CustomResourceDefinitionManifest() ([]byte, error) {
	return Descriptor().CustomResourceDefinitionManifest()
}
