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

package coredns

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"k8s.io/apimachinery/pkg/api/resource"
)

// EncodeFacts is the JSON kops passes in FactsFlag: deterministic, so the same cluster gives the
// same Deployment and a change of facts rolls the operator out.
func EncodeFacts(f Facts) (string, error) {
	data, err := json.Marshal(f)
	if err != nil {
		return "", fmt.Errorf("encoding the CoreDNS facts: %w", err)
	}
	return string(data), nil
}

// ParseFacts reads what EncodeFacts wrote; a missing field keeps DefaultFacts' value. Unknown
// fields, a second value and values the renderer cannot use are refused, all named at once, so
// the operator stops at start-up rather than render what the admission policy would refuse.
func ParseFacts(data string) (Facts, error) {
	f := DefaultFacts()
	dec := json.NewDecoder(strings.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return Facts{}, fmt.Errorf("reading the CoreDNS facts: %w", err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return Facts{}, fmt.Errorf("reading the CoreDNS facts: more than one JSON value")
	}
	var problems []string
	if f.AutoscalerImage == "" {
		problems = append(problems, "autoscalerImage: must not be empty")
	}
	for _, q := range []struct{ field, value string }{
		{"cpuRequest", f.CPURequest}, {"memoryRequest", f.MemoryRequest}, {"memoryLimit", f.MemoryLimit},
	} {
		if _, err := resource.ParseQuantity(q.value); err != nil {
			problems = append(problems, fmt.Sprintf("%s: %q is not a quantity", q.field, q.value))
		}
	}
	for i, t := range f.Tolerations {
		if t.Key == "" && t.Operator != "Exists" {
			problems = append(problems, fmt.Sprintf("tolerations[%d].key: must be set unless operator is Exists", i))
		}
	}
	for k := range f.PodAnnotations {
		switch k {
		case "":
			problems = append(problems, "podAnnotations: a key is empty")
		case CorefileChecksumAnnotation:
			problems = append(problems, "podAnnotations: "+k+" is written by the rendering itself")
		}
	}
	if len(problems) > 0 {
		return Facts{}, fmt.Errorf("the CoreDNS facts are refused: %s", strings.Join(problems, "; "))
	}
	return f, nil
}

// FactsFlag is the operator's flag for EncodeFacts' output; here so kops need not link the operator.
const FactsFlag = "cluster-facts"
