// Package channels applies kops's real addons to a real API server with `channels apply`: every
// object is accepted and really created, a re-apply sends no mutating request, failures are
// isolated and converge, pruning removes what left a manifest, and the record is kops's.
package channels

import (
	"testing"

	"k8s.io/kops/tests/e2e/framework"
)

var env *framework.Env

// The server logs the delete requests it serves, so that the order of pruning can be checked.
func TestMain(m *testing.M) {
	framework.MainWith(m, framework.Options{AuditDeletes: true}, func(e *framework.Env) { env = e })
}
