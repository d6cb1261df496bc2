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

package transition

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"k8s.io/kops/channels/pkg/apply"
	"k8s.io/kops/pkg/apis/kops"
	"k8s.io/kops/tests/e2e/framework"
	"k8s.io/kops/tests/e2e/kopsenv"
)

// flagsOn are the feature flags that run CoreDNS through its CoreDNS object.
const flagsOn = "ClusterAddons,UseAddonOperators"

// TestFreshServerSideClusterScalesCoreDNS: a cluster created with the operator flags on (nothing of
// CoreDNS on it before) gets the autoscaler and the PodDisruptionBudget from kops, as a built-in
// cluster does, and keeps those very objects when it is switched to client-side mode, back, to
// built in and back again.
func TestFreshServerSideClusterScalesCoreDNS(t *testing.T) {
	// A server of its own: the other test starts from a cluster kops's channels populated.
	shared := env
	env = framework.Start(t)
	t.Cleanup(func() { env = shared })

	s := kopsenv.NewStore(t, "minimal")
	run := kopsenv.Apply(t, env, s.Update(t, flagsOn), s.Mem, true)
	require.NoError(t, run.Err, run.Output)
	assert.Equal(t, apply.Applied, run.Outcomes()[scalingAddon], run.Output)
	first := scalingUIDs(t, scalingAddon)
	assertScalesCoreDNS(t)
	// No operator runs here, so Deployment coredns comes with client-side mode; from then on the
	// count the autoscaler sets survives every switch.
	var count int32

	steps := []struct {
		name, flags, mode, owner string
	}{
		{"server-side to client-side", flagsOn, kops.OperatorModeClientSide, "coredns.addons.k8s.io"},
		{"client-side to server-side", flagsOn, kops.OperatorModeServerSide, scalingAddon},
		{"server-side to built in", "", "", "coredns.addons.k8s.io"},
		{"built in to server-side", flagsOn, "", scalingAddon},
	}
	for _, step := range steps {
		t.Run(step.name, func(t *testing.T) {
			s.SetOperatorMode(t, step.mode)
			location := s.Update(t, step.flags)
			run := kopsenv.Apply(t, env, location, s.Mem, true)
			require.NoError(t, run.Err, run.Output)
			var retiredObject []string
			if run.Outcomes()["coredns.addons.x-k8s.io"] == apply.Retired {
				retiredObject = []string{"corednses kube-system/coredns"}
			}
			assert.Equal(t, retiredObject, kopsenv.CollectOrphans(t, env), "a retired CoreDNS object is deleted orphaning its dependents")
			assert.Equal(t, first, scalingUIDs(t, step.owner), "the autoscaler's objects and the budget are the same objects")
			assertScalesCoreDNS(t)
			if count != 0 {
				assert.Equal(t, count, replicasOf(t), "the switch keeps the replica count the autoscaler set")
			}
			count = scaleAsAutoscaler(t)
			again := kopsenv.Apply(t, env, location, s.Mem, true)
			require.NoError(t, again.Err)
			assert.Zero(t, again.Requests.Mutating(), "a second apply changes nothing")
		})
	}
}
