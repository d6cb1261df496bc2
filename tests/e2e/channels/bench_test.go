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

package channels

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"k8s.io/kops/tests/e2e/framework"
	"k8s.io/kops/tests/e2e/kopsenv"
)

// BenchmarkApplyOperatorChannel measures `channels apply channel --yes` of the addon-operators
// channel against the test server. "apply" forgets the records before each run, so every addon is
// applied again (the first run is the truly cold one: nothing on the server yet); "noop" is the
// re-apply with nothing to do. requests/op and mutating/op count what reaches the server.
func BenchmarkApplyOperatorChannel(b *testing.B) {
	s := kopsenv.NewStore(b, "addon-operators")
	location := s.Update(b, "ClusterAddons,UseAddonOperators")

	b.Run("apply", func(b *testing.B) {
		var requests, mutating int
		for i := 0; i < b.N; i++ {
			b.StopTimer()
			forgetRecords(b)
			b.StartTimer()
			run := kopsenv.Apply(b, env, location, s.Mem, true)
			require.NoError(b, run.Err, run.Output)
			requests += run.Requests.Total()
			mutating += run.Requests.Mutating()
		}
		b.ReportMetric(float64(requests)/float64(b.N), "requests/op")
		b.ReportMetric(float64(mutating)/float64(b.N), "mutating/op")
	})
	b.Run("noop", func(b *testing.B) {
		var requests, mutating int
		for i := 0; i < b.N; i++ {
			run := kopsenv.Apply(b, env, location, s.Mem, true)
			require.NoError(b, run.Err, run.Output)
			requests += run.Requests.Total()
			mutating += run.Requests.Mutating()
		}
		b.ReportMetric(float64(requests)/float64(b.N), "requests/op")
		b.ReportMetric(float64(mutating)/float64(b.N), "mutating/op")
	})
}

// forgetRecords removes every addon record from kube-system.
func forgetRecords(b *testing.B) {
	ctx := framework.Context(b)
	ns, err := env.Clientset.CoreV1().Namespaces().Get(ctx, "kube-system", metav1.GetOptions{})
	require.NoError(b, err)
	var removals []string
	for key := range ns.Annotations {
		if strings.HasPrefix(key, "addons.k8s.io/") {
			removals = append(removals, `"`+key+`":null`)
		}
	}
	if len(removals) == 0 {
		return
	}
	patch := `{"metadata":{"annotations":{` + strings.Join(removals, ",") + `}}}`
	_, err = env.Clientset.CoreV1().Namespaces().Patch(ctx, "kube-system", types.MergePatchType, []byte(patch), metav1.PatchOptions{})
	require.NoError(b, err)
}
