// Package metricsserver applies the built-in metrics-server addon, as `kops update cluster` writes
// it for spec.metricsServer, to a real API server: the APIService and the RBAC are accepted and
// stored as rendered, and metrics-server's ServiceAccount may do what metrics-server does and
// nothing else, by SubjectAccessReview and by real requests under its own token.
package metricsserver

import (
	"testing"

	"k8s.io/kops/tests/e2e/framework"
)

var env *framework.Env

func TestMain(m *testing.M) { framework.Main(m, func(e *framework.Env) { env = e }) }
