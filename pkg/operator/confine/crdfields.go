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

package confine

import (
	"reflect"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

	"k8s.io/kops/pkg/crdschema"
)

// CRDWords is the operator-specific text of its CRD.
type CRDWords struct {
	// Instructions is the name of the one object of Kind.
	Kind, Instructions string
	Purpose            string
	// Subject names what the operator runs ("CoreDNS").
	Subject string
	// VersionExample and ImageExample are a version and a pinned image the addon has had.
	VersionExample, ImageExample string
}

// CRDFields are the validations every operator's custom resource has: one object of one name, no
// channel or patches (the operator fetches nothing), a semantic version, a pinned image and a
// bounded Status. An operator adds its own spec fields.
func CRDFields(w CRDWords) crdschema.Fields {
	return crdschema.Fields{
		"": {
			Description: w.Purpose,
			Rules: ValidationRule("self.metadata.name == '"+w.Instructions+"'",
				"the operator manages one "+w.Kind+" object, named "+w.Instructions),
		},
		"spec": {Refused: []crdschema.Refused{
			{Name: "channel", Type: reflect.TypeOf(""), Why: "the operator deploys the version and image named here and fetches nothing"},
			{Name: "patches", Type: reflect.TypeOf([]struct{}{}), Why: "the " + w.Subject + " image is spec.image, and nothing else of what the operator creates can be patched"},
		}},
		"spec.version": WithField(MaxLength(64), func(f *crdschema.Field) {
			f.Description = "The " + w.Subject + " version to run, a semantic version such as " + w.VersionExample + "."
			f.Pattern = crdschema.SemverPattern
		}),
		"spec.image": WithField(MaxLength(512), func(f *crdschema.Field) {
			f.Description = "The " + w.Subject + " image, pinned by a version tag or a sha256 digest, such as " + w.ImageExample + "."
			f.Pattern = crdschema.PinnedImagePattern
			f.Rules = ValidationRule("!self.endsWith(':latest')", "must be pinned by a version tag or a digest, not the mutable tag latest")
		}),
		"status.errors":   {MaxItems: maxItems(16)},
		"status.errors[]": MaxLength(1024),
		"status.phase":    MaxLength(64),
		"status.observedGeneration": {
			Description: "The generation of the object the status describes.",
			Minimum:     zero(),
		},
		"status.conditions": {
			Description: "Available, Progressing and Degraded, from the " + w.Subject + " Deployment and the last reconcile.",
			MaxItems:    maxItems(8),
			MapKeys:     []string{"type"},
		},
		"status.conditions[].type":               MaxLength(316),
		"status.conditions[].status":             WithField(MaxLength(7), func(f *crdschema.Field) { f.Enum = []string{"True", "False", "Unknown"} }),
		"status.conditions[].observedGeneration": {Minimum: zero()},
		"status.conditions[].lastTransitionTime": MaxLength(64),
		"status.conditions[].reason":             MaxLength(1024),
		"status.conditions[].message":            MaxLength(1024),
	}
}

func CRDColumns() []apiextensionsv1.CustomResourceColumnDefinition {
	return []apiextensionsv1.CustomResourceColumnDefinition{
		{Name: "Version", Type: "string", JSONPath: ".spec.version"},
		{Name: "Healthy", Type: "boolean", JSONPath: ".status.healthy"},
		{Name: "Age", Type: "date", JSONPath: ".metadata.creationTimestamp"},
	}
}

func MaxLength(n int64) crdschema.Field { return crdschema.Field{MaxLength: &n} }

func ValidationRule(rule, message string) []apiextensionsv1.ValidationRule {
	return []apiextensionsv1.ValidationRule{{Rule: rule, Message: message}}
}

func WithField(f crdschema.Field, change func(*crdschema.Field)) crdschema.Field {
	change(&f)
	return f
}

func maxItems(n int64) *int64 { return &n }

func zero() *float64 {
	z := 0.0
	return &z
}
