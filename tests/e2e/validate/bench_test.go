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
	"testing"

	"github.com/stretchr/testify/require"

	"k8s.io/kops/tests/e2e/kopsenv"
)

// BenchmarkValidateClusterBinary runs `kops validate cluster` as a user does, the built binary on
// a healthy cluster with built-in CoreDNS: process start, state store read, kubeconfig, requests.
func BenchmarkValidateClusterBinary(b *testing.B) {
	bin := kopsenv.BuildCommands(b, "kops", "channels")
	c := newClusterTB(b, bin, "bench.k8s.local", "")
	setDeploymentAvailable(b, "kube-system", "coredns", true)
	b.ResetTimer()
	for b.Loop() {
		r := c.run(b, "kops", "validate", "cluster", c.name)
		require.Equal(b, 0, r.Code, r.Stderr)
	}
}
