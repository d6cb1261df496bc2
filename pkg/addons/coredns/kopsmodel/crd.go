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
	"fmt"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

	"k8s.io/kops/pkg/addons/coredns"
	"k8s.io/kops/pkg/crdschema"
	"k8s.io/kops/pkg/operator/confine"
)

// Every string is bounded, which also keeps the CEL rules' cost low. isIP needs Kubernetes 1.31
// (a CEL library reaches CRDs one minor after it arrives), hence the channels' kubernetesVersion.

// dnsDomainPattern is an RFC 1123 subdomain: it goes into the Corefile, so no newlines, braces or
// spaces. The API server matches it with Go's regexp.
const dnsDomainPattern = `^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$`

// crdFields are every operator's validations and CoreDNS's own fields.
func crdFields() crdschema.Fields {
	fields := confine.CRDFields(confine.CRDWords{
		Kind: coredns.CRDKind, Instructions: coredns.CoreDNSResource,
		Purpose:        "CoreDNS asks the operator to run CoreDNS as the cluster's DNS service.",
		Subject:        "CoreDNS",
		VersionExample: "1.12.4", ImageExample: "registry.k8s.io/coredns/coredns:v1.12.4",
	})
	rule, with, maxLen := confine.ValidationRule, confine.WithField, confine.MaxLength
	fields["spec.dnsDomain"] = with(maxLen(253), func(f *crdschema.Field) {
		f.Description = "The cluster's DNS domain, an RFC 1123 subdomain such as cluster.local."
		f.Pattern = dnsDomainPattern
	})
	fields["spec.dnsIP"] = with(maxLen(45), func(f *crdschema.Field) {
		f.Description = "The ClusterIP of the DNS service, an IPv4 or IPv6 address."
		f.Rules = rule("isIP(self)", "must be an IPv4 or IPv6 address (no leading zeros, zone or IPv4-mapped IPv6 form)")
	})
	fields["spec.corefile"] = with(maxLen(coredns.MaxCorefileBytes), func(f *crdschema.Field) {
		f.Description = "A complete Corefile replacing the default one, at most 64 KiB."
		// maxLength counts characters; this counts bytes.
		f.Rules = rule(fmt.Sprintf("bytes(self).size() <= %d", coredns.MaxCorefileBytes),
			fmt.Sprintf("must be at most %d bytes (64 KiB)", coredns.MaxCorefileBytes))
	})
	fields["spec.corefileChecksum"] = with(maxLen(64), func(f *crdschema.Field) {
		f.Description = "The SHA-256 of spec.corefile, 64 lowercase hex digits, put on CoreDNS's pod template so that a new Corefile rolls CoreDNS out. The operator refuses an object whose checksum is not that of its Corefile."
		f.Pattern = coredns.CorefileChecksumPattern
	})
	return fields
}

// CustomResourceDefinition is the CoreDNS CRD kops writes into the bootstrap channel.
func CustomResourceDefinition() (*apiextensionsv1.CustomResourceDefinition, error) {
	return Descriptor().CustomResourceDefinition()
}

// CustomResourceDefinitionManifest is that CRD as YAML, without the addon's labels.
func CustomResourceDefinitionManifest() ([]byte, error) {
	return Descriptor().CustomResourceDefinitionManifest()
}
