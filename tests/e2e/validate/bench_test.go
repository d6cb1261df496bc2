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
