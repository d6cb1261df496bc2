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

package operatorrun

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"k8s.io/kops/pkg/operator/manager"
	"k8s.io/kops/tests/e2e/framework"
	"k8s.io/kops/tests/e2e/kopsenv"
)

// TestOperatorConvergesOnEveryGoldenCase: for each golden case that runs CoreDNS through its
// operator, on a server of its own, the operator (with the arguments kops gave its Deployment)
// takes over the built-in addon's objects under its own token and the exact admission policy kops
// derived for that cluster, and reports Ready: what it renders is what kops renders, for every
// shape of cluster the goldens hold (custom resources and placement, a registry mirror, an
// external Corefile, the channels).
func TestOperatorConvergesOnEveryGoldenCase(t *testing.T) {
	dirs, err := filepath.Glob(filepath.Join(kopsenv.RepoRoot(t), "tests", "integration", "update_cluster", "*", "expected", "addons", "operator.coredns.addons.x-k8s.io"))
	require.NoError(t, err)
	require.NotEmpty(t, dirs)
	shared := env
	t.Cleanup(func() { env = shared })
	for _, dir := range dirs {
		goldenCase := filepath.Base(strings.TrimSuffix(dir, filepath.Join("expected", "addons", "operator.coredns.addons.x-k8s.io")))
		t.Run(goldenCase, func(t *testing.T) {
			env = framework.Start(t)
			// A case's file:// channel is relative to its folder, as in the golden test.
			t.Chdir(filepath.Dir(filepath.Dir(filepath.Dir(dir))))
			applyOperatorAddons(t, goldenCase, true)
			beforeD := deployment(t)
			counter := &statusCounter{}
			startOperatorWith(t, operatorConfig(t, counter), "golden", deployedOptions(t))
			// The operator may write the Deployment (a new generation) after any one rollout:
			// whatever generation it settles on is rolled out until its status is Ready.
			ready := statusIs(t, manager.PhaseReady, true)
			eventually(t, "status", func() string {
				if d := deployment(t); d.Status.ObservedGeneration != d.Generation {
					if err := tryRollOut(t); err != nil {
						return "rolling out: " + err.Error()
					}
				}
				return ready()
			})
			assert.Empty(t, coreDNS(t).Status.Errors)
			// The takeover is in place: the operator's Deployment is the one kops applied, but for
			// the CoreDNS image when the case's channel chose another version than the built-in's.
			want := beforeD.Spec.DeepCopy()
			want.Template.Spec.Containers[0].Image = coreDNS(t).Spec.Image
			after := deployment(t)
			assert.Equal(t, *want, after.Spec)
			if beforeD.Spec.Template.Spec.Containers[0].Image == want.Template.Spec.Containers[0].Image {
				assert.Equal(t, beforeD.Generation, after.Generation, "no new generation, no rollout")
			}
		})
	}
}
