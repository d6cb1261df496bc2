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
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/api/resource"

	"k8s.io/kops/pkg/kubemanifest/manifesttest"
	"k8s.io/kops/util/pkg/allocbound"
)

// FuzzParseFacts: the facts reach the operator as a command-line argument. Parsing must not panic
// and must work in proportion to the input; facts it accepts encode to an argument parsed back to
// the same facts, and render (ParseFacts refuses what the renderer cannot use, so that the
// operator stops at start-up rather than at its first reconcile) into a manifest that decodes
// strictly, whose CoreDNS container asks for exactly the quantities given.
func FuzzParseFacts(f *testing.F) {
	for _, s := range []string{
		`{}`,
		`{"autoscalerImage":"r.example.com/cpa:v1","cpuRequest":"0.25","memoryRequest":"96Mi","memoryLimit":"1Gi"}`,
		`{"tolerations":[{"key":"dedicated","operator":"Equal","value":"dns","effect":"NoSchedule"},{"operator":"Exists"}],"podAnnotations":{"a.example.com/b":"c"}}`,
		`{"affinity":{"nodeAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":{"nodeSelectorTerms":[{"matchExpressions":[{"key":"dns","operator":"In","values":["yes"]}]}]}}}}`,
		`{"cpuRequest":"lots","bogus":1} {}`,
	} {
		f.Add(s)
	}
	spec := minimalSpec()
	f.Fuzz(func(t *testing.T, data string) {
		var facts Facts
		var err error
		allocbound.Check(t, len(data), func() { facts, err = ParseFacts(data) })
		if err != nil {
			return
		}
		encoded, err := EncodeFacts(facts)
		require.NoError(t, err)
		back, err := ParseFacts(encoded)
		require.NoError(t, err, "re-parsing our own output: %s", encoded)
		again, err := EncodeFacts(back)
		require.NoError(t, err)
		assert.Equal(t, encoded, again)

		manifest, err := Render(spec, facts)
		require.NoError(t, err, "accepted facts that do not render: %s", data)
		m := manifesttest.Decode(t, manifest)
		d := manifesttest.Get[*appsv1.Deployment](t, m, "Deployment/kube-system/coredns")
		resources := d.Spec.Template.Spec.Containers[0].Resources
		for _, q := range []struct {
			got  resource.Quantity
			want string
		}{
			{resources.Requests["cpu"], facts.CPURequest},
			{resources.Requests["memory"], facts.MemoryRequest},
			{resources.Limits["memory"], facts.MemoryLimit},
		} {
			want := resource.MustParse(q.want)
			assert.Zero(t, want.Cmp(q.got), "rendered %s for %s", q.got.String(), q.want)
		}
	})
}
