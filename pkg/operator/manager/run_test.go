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

package manager

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"k8s.io/client-go/rest"

	kubecfg "k8s.io/kops/pkg/kubeconfig"
)

// Whoever calls Run (the binary, a test, a benchmark) gets the operator's rate limit, not
// client-go's 5/s default, and the caller's config is left as it was.
func TestRunUsesTheOperatorsRateLimit(t *testing.T) {
	for _, in := range []*rest.Config{{}, {QPS: 5, Burst: 10}, {QPS: 1000, Burst: 2000}} {
		before := *in
		out := withRateLimit(in)
		assert.Equal(t, float32(kubecfg.DefaultQPS), out.QPS)
		assert.Equal(t, kubecfg.DefaultBurst, out.Burst)
		assert.Equal(t, before.QPS, in.QPS, "the caller's config is not changed")
		assert.Equal(t, before.Burst, in.Burst)
	}
}
