// Package tryit runs the community's try-it flow verbatim, from the repository root, with the
// built kops and channels binaries against a real API server.
package tryit

import (
	"testing"

	"k8s.io/kops/tests/e2e/framework"
)

var env *framework.Env

func TestMain(m *testing.M) { framework.Main(m, func(e *framework.Env) { env = e }) }
