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

package updatecluster

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"k8s.io/kops/pkg/apis/kops"
	"k8s.io/kops/upup/pkg/fi/cloudup"
)

// Changing podMetadataAccess.mode adds and removes kube2iam's manifest, and the dry run says so.
// The forward settings go with the mode, as validation requires of a user's edit.
func TestKube2IAMModeTransitions(t *testing.T) {
	s := newGoldenStore(t, "kube2iam")
	const manifest = "addons/kube2iam.addons.k8s.io/k8s-1.12.yaml"
	stored, _, err := s.clientset.GetCluster(s.name)
	require.NoError(t, err)
	forward := stored.Spec.PodMetadataAccess.Forward
	require.NotNil(t, forward)
	setMode := func(t *testing.T, mode string) {
		cluster, _, err := s.clientset.GetCluster(s.name)
		require.NoError(t, err)
		cluster.Spec.PodMetadataAccess.Mode = mode
		cluster.Spec.PodMetadataAccess.Forward = nil
		if mode == kops.PodMetadataAccessForward {
			cluster.Spec.PodMetadataAccess.Forward = forward
		}
		require.NoError(t, s.clientset.UpdateCluster(cluster))
	}
	_, result := s.update(t, cloudup.TargetDirect)
	require.True(t, result.Changed)
	require.Contains(t, s.addonFiles(t), manifest)

	steps := []struct {
		mode    string
		present bool
		report  string
	}{
		{kops.PodMetadataAccessBlock, false, "Will delete resources:\n  StaleFiles/addons\n  \tkube2iam.addons.k8s.io\t" + manifest + "\n"},
		// Only the node rules change: kube2iam is already gone.
		{kops.PodMetadataAccessAllow, false, "+Description=kops: pod access to instance metadata (mode Allow)\n"},
		{kops.PodMetadataAccessForward, true, "Will create resources:\n  ManagedFile/" + manifest + "\n"},
	}
	for _, step := range steps {
		t.Run(step.mode, func(t *testing.T) {
			setMode(t, step.mode)
			report, _ := s.update(t, cloudup.TargetDryRun)
			assert.Contains(t, report, step.report)
			if step.mode == kops.PodMetadataAccessAllow {
				assert.NotContains(t, report, "kube2iam.addons.k8s.io", "nothing of kube2iam changes from Block to Allow")
			}
			s.update(t, cloudup.TargetDirect)
			files := s.addonFiles(t)
			_, present := files[manifest]
			assert.Equal(t, step.present, present)
			assert.Equal(t, step.present, strings.Contains(files["addons/bootstrap-channel.yaml"], "name: kube2iam.addons.k8s.io"))
			again, _ := s.update(t, cloudup.TargetDirect)
			assert.Equal(t, "No changes need to be applied\n", again)
		})
	}
}

// kube2iam restricts roles by namespace unless the cluster says false: update cluster renders
// --namespace-restrictions for an unset field and for true, not for false, and the stored spec
// keeps what the user wrote (an explicit false survives; unset stays unset).
func TestKube2IAMNamespaceRestrictionsDefault(t *testing.T) {
	const manifest = "addons/kube2iam.addons.k8s.io/k8s-1.12.yaml"
	cases := []struct {
		name string
		set  *bool
		want bool
	}{
		{"unset", nil, true},
		{"true", ptrTo(true), true},
		{"false", ptrTo(false), false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := newGoldenStore(t, "kube2iam")
			cluster, _, err := s.clientset.GetCluster(s.name)
			require.NoError(t, err)
			require.Nil(t, cluster.Spec.PodMetadataAccess.Forward.NamespaceRestrictions, "the golden case leaves it unset")
			cluster.Spec.PodMetadataAccess.Forward.NamespaceRestrictions = tc.set
			require.NoError(t, s.clientset.UpdateCluster(cluster))

			s.update(t, cloudup.TargetDirect)
			assert.Equal(t, tc.want, strings.Contains(s.addonFiles(t)[manifest], `- "--namespace-restrictions"`))
			stored, _, err := s.clientset.GetCluster(s.name)
			require.NoError(t, err)
			assert.Equal(t, tc.set, stored.Spec.PodMetadataAccess.Forward.NamespaceRestrictions, "the stored spec is what the user wrote")
		})
	}
}

func ptrTo[T any](v T) *T { return &v }
