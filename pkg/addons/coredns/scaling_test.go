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

package coredns

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRenderScalingIsTheBuiltInAddons: the addon kops applies beside the operator holds exactly the
// built-in addon's PodDisruptionBudget and autoscaler, byte for byte, but for the addon label of
// each object (not of the autoscaler's pods, which would roll it out) and the replica bound, so
// that switching mode updates them in place.
func TestRenderScalingIsTheBuiltInAddons(t *testing.T) {
	facts := DefaultFacts()
	facts.AutoscalerImage = "registry.example.com/mirror/cpa/cluster-proportional-autoscaler:v1.9.0"
	builtIn, err := Render(minimalSpec(), facts)
	require.NoError(t, err)
	start := strings.Index(string(builtIn), "apiVersion: policy/v1\nkind: PodDisruptionBudget\n")
	require.Positive(t, start, "the built-in addon has the budget")
	tail := string(builtIn[start:])

	for _, max := range []int64{0, 50} {
		scaling, err := RenderScaling(facts, BuiltInMinReplicas, max)
		require.NoError(t, err)
		got := string(scaling)
		assert.Equal(t, 8, strings.Count(got, "\n    addon.kops.k8s.io/name: "+ScalingAddonName+"\n"), "every object is labelled for its addon")
		assert.Contains(t, got, "\n        addon.kops.k8s.io/name: "+AddonName+"\n", "the pods keep their label")
		assert.Contains(t, got, "image: \""+facts.AutoscalerImage+"\"\n")
		if max == 0 {
			assert.NotContains(t, got, `"max"`)
		} else {
			assert.Contains(t, got, `"min":1,"max":50,"preventSinglePointFailure":true`)
			got = strings.Replace(got, `"min":1,"max":50,`, `"min":1,`, 1)
		}
		got = strings.ReplaceAll(got, "addon.kops.k8s.io/name: "+ScalingAddonName, "addon.kops.k8s.io/name: "+AddonName)
		assert.Equal(t, tail, got, "max %d", max)
	}
}

func TestRenderScalingRejectsIncompleteInput(t *testing.T) {
	facts := DefaultFacts()
	for _, c := range []struct {
		min, max int64
		want     string
	}{
		{1, -1, "maxReplicas -1 must be 0 (no bound) or at least minReplicas 1"},
		{3, 2, "maxReplicas 2 must be 0 (no bound) or at least minReplicas 3"},
		{0, 50, "minReplicas 0 is below 1"},
	} {
		_, err := RenderScaling(facts, c.min, c.max)
		assert.ErrorContains(t, err, c.want, "[%d, %d]", c.min, c.max)
	}
	_, err := RenderScaling(facts, 2, 2)
	assert.NoError(t, err, "one count only")
	facts.AutoscalerImage = ""
	_, err = RenderScaling(facts, 1, 50)
	assert.ErrorContains(t, err, "no autoscaler image")
}

// The autoscaler's parameters are rendered from the bounds given, not from a literal.
func TestRenderScalingRendersTheBoundsGiven(t *testing.T) {
	facts := DefaultFacts()
	scaling, err := RenderScaling(facts, 3, 7)
	require.NoError(t, err)
	assert.Contains(t, string(scaling), `"min":3,"max":7,"preventSinglePointFailure":true`)
}
