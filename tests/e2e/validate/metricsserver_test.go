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

package validate

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"k8s.io/kops/tests/e2e/kopsenv"
)

// With spec.metricsServer.enabled, validation checks what metrics-server runs: its Deployment
// available and its APIService Available, each failure named, exit code 2 until both are.
func TestValidateMetricsServer(t *testing.T) {
	bin := kopsenv.BuildCommands(t, "kops", "channels")
	c := newCluster(t, bin, "metrics.k8s.local", "", "spec.metricsServer.enabled=true,spec.metricsServer.insecure=true")
	validate := func(args ...string) kopsenv.Run {
		return c.run(t, "kops", append([]string{"validate", "cluster", c.name}, args...)...)
	}
	// CoreDNS is left as channels applied it (other tests of the package check it from there): only
	// metrics-server's checks are looked at.
	metricsServer := func(r kopsenv.Run) map[string]string {
		t.Helper()
		var got result
		require.NoError(t, json.Unmarshal([]byte(r.Stdout), &got), r.Stderr)
		out := map[string]string{}
		for k, v := range got.failing() {
			if !strings.Contains(k, "coredns") && !strings.Contains(k, "kube-dns") {
				out[k] = v
			}
		}
		return out
	}

	// No metrics-server runs here: the API server's aggregator itself reports the APIService
	// unavailable (no endpoints behind its Service), with its reason, which validation names.
	r := validate("-o", "json")
	assert.Equal(t, exitUnhealthy, r.Code)
	failing := metricsServer(r)
	assert.Equal(t, "not available: generation 1 not yet observed by its controller", failing["Deployment kube-system/metrics-server"])
	assert.Regexp(t, `^not available: (no Available condition yet|\w+ .+)$`, failing["APIService v1beta1.metrics.k8s.io"])
	assert.Len(t, failing, 2)
	r = validate()
	assert.Contains(t, r.Stderr, "  Deployment kube-system/metrics-server: not available: generation 1 not yet observed by its controller\n")
	assert.Contains(t, r.Stderr, "  APIService v1beta1.metrics.k8s.io: not available: ")

	setDeploymentAvailable(t, "kube-system", "metrics-server", false)
	r = validate("-o", "json")
	assert.Equal(t, exitUnhealthy, r.Code)
	assert.Contains(t, metricsServer(r)["Deployment kube-system/metrics-server"], "not available: MinimumReplicasUnavailable")

	// With its Deployment available, the APIService alone keeps the cluster unhealthy.
	setDeploymentAvailable(t, "kube-system", "metrics-server", true)
	r = validate("-o", "json")
	assert.Equal(t, exitUnhealthy, r.Code)
	failing = metricsServer(r)
	require.Len(t, failing, 1, "%v", failing)
	assert.Contains(t, failing, "APIService v1beta1.metrics.k8s.io")
	assert.Regexp(t, `Deployment +kube-system/metrics-server +OK +available, 2/2 replicas ready`, validate().Stdout)
}
