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
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
)

func TestFactsRoundTrip(t *testing.T) {
	custom := DefaultFacts()
	custom.AutoscalerImage = "registry.example.com/mirror/cpa/cluster-proportional-autoscaler:v1.9.0"
	custom.CPURequest, custom.MemoryRequest, custom.MemoryLimit = "250m", "96Mi", "1Gi"
	custom.Tolerations = []corev1.Toleration{{Key: "dedicated", Operator: corev1.TolerationOpEqual, Value: "dns", Effect: corev1.TaintEffectNoSchedule}}
	custom.Affinity = &corev1.Affinity{NodeAffinity: &corev1.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &corev1.NodeSelector{
		NodeSelectorTerms: []corev1.NodeSelectorTerm{{MatchExpressions: []corev1.NodeSelectorRequirement{{Key: "dns", Operator: corev1.NodeSelectorOpIn, Values: []string{"yes"}}}}},
	}}}
	custom.PodAnnotations = map[string]string{"b.example.com/x": "2", "a.example.com/y": "1"}
	for _, tc := range []struct {
		name  string
		facts Facts
	}{{"defaults", DefaultFacts()}, {"everything set", custom}} {
		t.Run(tc.name, func(t *testing.T) {
			encoded, err := EncodeFacts(tc.facts)
			require.NoError(t, err)
			again, err := EncodeFacts(tc.facts)
			require.NoError(t, err)
			assert.Equal(t, encoded, again, "the same facts give the same argument")
			parsed, err := ParseFacts(encoded)
			require.NoError(t, err)
			assert.Equal(t, tc.facts, parsed)
		})
	}
	encoded, err := EncodeFacts(custom)
	require.NoError(t, err)
	assert.Less(t, strings.Index(encoded, `"a.example.com/y"`), strings.Index(encoded, `"b.example.com/x"`), "annotations sorted: %s", encoded)
}

func TestParseFactsKeepsDefaultsOfOmittedFields(t *testing.T) {
	f, err := ParseFacts(`{"memoryLimit":"1Gi"}`)
	require.NoError(t, err)
	want := DefaultFacts()
	want.MemoryLimit = "1Gi"
	assert.Equal(t, want, f)
}

func TestParseFactsRefusesBadInput(t *testing.T) {
	for _, tc := range []struct {
		name, input string
		want        []string
	}{
		{"not JSON", `cpuRequest=1`, []string{"reading the CoreDNS facts: invalid character"}},
		{"unknown field, e.g. a typo", `{"cpuRequests":"1"}`, []string{`unknown field "cpuRequests"`}},
		{"two values", `{} {}`, []string{"more than one JSON value"}},
		{"every problem at once", `{"autoscalerImage":"","cpuRequest":"lots","memoryLimit":"-x-","tolerations":[{"effect":"NoSchedule"}],"podAnnotations":{"":"v"}}`, []string{
			"autoscalerImage: must not be empty",
			`cpuRequest: "lots" is not a quantity`,
			`memoryLimit: "-x-" is not a quantity`,
			"tolerations[0].key: must be set unless operator is Exists",
			"podAnnotations: a key is empty",
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseFacts(tc.input)
			require.Error(t, err)
			for _, w := range tc.want {
				assert.Contains(t, err.Error(), w)
			}
		})
	}
}
