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
