// Package validate runs `kops validate cluster`, the built binary, against a real API server: the
// test applies the cluster's real bootstrap channel with the built `channels` and plays the
// controllers (Deployment and CoreDNS status) itself.
package validate

import (
	"testing"

	"k8s.io/kops/tests/e2e/framework"
)

var env *framework.Env

func TestMain(m *testing.M) { framework.Main(m, func(e *framework.Env) { env = e }) }
