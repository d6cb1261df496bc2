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

// DNSNameProblems says what keeps name from being a DNS name. Unlike IsDNS1123Subdomain it also
// bounds each label to 63 characters, since the name is looked up in DNS.
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

func shortLabel(label string) string {
	const keep = 16
	if len(label) <= keep {
		return label
	}
	return label[:keep] + "..."
}
