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

package validation

import (
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation"
)

// DNSNameProblems says what keeps name from being a DNS name: a lowercase RFC 1123 subdomain of
// at most 253 characters whose every dot-separated label has at most 63 characters. apimachinery's
// IsDNS1123Subdomain checks only the whole length, so a 64-character label passes it; but a
// cluster name, a DNS domain or a stub domain is looked up in DNS, where such a label cannot exist.
// Kubernetes object names keep IsDNS1123Subdomain: the API server accepts long labels there.
func DNSNameProblems(name string) []string {
	problems := validation.IsDNS1123Subdomain(name)
	for i, label := range strings.Split(name, ".") {
		if len(label) > validation.DNS1123LabelMaxLength {
			problems = append(problems, fmt.Sprintf("label %d (%q) has %d characters: a DNS label has at most %d",
				i+1, shortLabel(label), len(label), validation.DNS1123LabelMaxLength))
		}
	}
	return problems
}

// shortLabel keeps a message about an overlong label readable.
func shortLabel(label string) string {
	const keep = 16
	if len(label) <= keep {
		return label
	}
	return label[:keep] + "..."
}
