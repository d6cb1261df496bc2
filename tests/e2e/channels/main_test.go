// Package channels applies kops's real addons to a real API server with `channels apply`: every
// object is accepted and really created, a re-apply sends no mutating request, failures are
// isolated and converge, pruning removes what left a manifest, and the record is kops's.
package channels

import (
	"testing"

	"k8s.io/kops/tests/e2e/framework"
)

var env *framework.Env

func TestMain(m *testing.M) { framework.Main(m, func(e *framework.Env) { env = e }) }
