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
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	channelsapi "k8s.io/kops/channels/pkg/api"
	"k8s.io/kops/pkg/apis/kops"
	"k8s.io/kops/pkg/featureflag"
	"k8s.io/kops/tests/integration/golden"
	"k8s.io/kops/upup/pkg/fi/cloudup"
)

// Turning the operator on for an existing cluster replaces the built-in CoreDNS addon at the next
// update (its manifest stays, as the channel's takeOver, for clusters kops's channels managed), and
// turning it off brings the built-in addon back; each dry run names exactly the addons that appear
// and disappear.
func TestOperatorFlagTransitions(t *testing.T) {
	s := newGoldenStore(t, "minimal")
	off := featureflag.Set{}
	on, _ := featureflag.Parse("ClusterAddons,UseOperators")

	// The default ServiceAccounts are locked first in every channel, whatever CoreDNS runs as.
	accounts := "serviceaccount-defaults.addons.k8s.io"
	accountsFile := "addons/serviceaccount-defaults.addons.k8s.io/v1.yaml"
	builtIn := []string{accounts, "coredns.addons.k8s.io"}
	operator := []string{accounts, "coredns-rbac.addons.k8s.io", "coredns-scaling.addons.k8s.io", "operator.coredns.addons.x-k8s.io", "coredns.addons.x-k8s.io"}
	builtInFiles := []string{"addons/bootstrap-channel.yaml", "addons/coredns.addons.k8s.io/k8s-1.12.yaml", accountsFile}
	operatorFiles := []string{
		"addons/bootstrap-channel.yaml",
		"addons/coredns-rbac.addons.k8s.io/k8s-1.12.yaml",
		"addons/coredns-scaling.addons.k8s.io/k8s-1.12.yaml",
		"addons/coredns.addons.k8s.io/k8s-1.12.yaml",
		"addons/coredns.addons.x-k8s.io/1.14.2.yaml",
		"addons/operator.coredns.addons.x-k8s.io/0.2.0.yaml",
		accountsFile,
	}

	steps := []struct {
		name       string
		flags      featureflag.Set
		wantReport []string
		addons     []string
		takeOver   []string
		files      []string
	}{
		{name: "built in", flags: off, addons: builtIn, files: builtInFiles, wantReport: []string{
			"Will create resources:\n  Ledger/igconfig/.kops-ledger.sha256\n",
			"\n  ManagedFile/addons/bootstrap-channel.yaml\n",
			"  ManagedFile/addons/coredns.addons.k8s.io/k8s-1.12.yaml\n",
		}},
		{name: "operator on", flags: on, addons: operator, takeOver: []string{"coredns.addons.k8s.io"}, files: operatorFiles, wantReport: []string{
			"Will create resources:\n",
			"  ManagedFile/addons/coredns-rbac.addons.k8s.io/k8s-1.12.yaml\n",
			"  ManagedFile/addons/coredns-scaling.addons.k8s.io/k8s-1.12.yaml\n",
			"  ManagedFile/addons/coredns.addons.x-k8s.io/1.14.2.yaml\n",
			"  ManagedFile/addons/operator.coredns.addons.x-k8s.io/0.2.0.yaml\n",
			"Will modify resources:\n  ManagedFile/addons/bootstrap-channel.yaml\n",
			"+    name: operator.coredns.addons.x-k8s.io\n",
			"+  takeOver:\n",
		}},
		{name: "operator off", flags: off, addons: builtIn, files: builtInFiles, wantReport: []string{
			"Will modify resources:\n  ManagedFile/addons/bootstrap-channel.yaml\n",
			"-  takeOver:\n",
			"Will delete resources:\n  StaleFiles/addons\n" +
				"  \tcoredns-rbac.addons.k8s.io\taddons/coredns-rbac.addons.k8s.io/k8s-1.12.yaml\n" +
				"  \tcoredns-scaling.addons.k8s.io\taddons/coredns-scaling.addons.k8s.io/k8s-1.12.yaml\n" +
				"  \tcoredns.addons.x-k8s.io\taddons/coredns.addons.x-k8s.io/1.14.2.yaml\n" +
				"  \toperator.coredns.addons.x-k8s.io\taddons/operator.coredns.addons.x-k8s.io/0.2.0.yaml\n",
		}},
	}
	for _, step := range steps {
		t.Run(step.name, func(t *testing.T) {
			s.flags = step.flags
			report, _ := s.update(t, cloudup.TargetDryRun)
			for _, want := range step.wantReport {
				assert.Contains(t, report, want)
			}
			_, result := s.update(t, cloudup.TargetDirect)
			require.True(t, result.Changed)

			files := s.addonFiles(t)
			assert.Equal(t, step.files, golden.SortedKeys(files))
			channel, err := channelsapi.ParseAddons([]byte(files["addons/bootstrap-channel.yaml"]))
			require.NoError(t, err)
			var names []string
			for _, a := range channel.Spec.Addons {
				names = append(names, a.Name)
				assert.Equal(t, channelsapi.ManifestHash([]byte(files["addons/"+a.Manifest])), a.ManifestHash, "the channel names what is stored")
			}
			assert.Equal(t, step.addons, names)
			var takeOver []string
			for _, a := range channel.Spec.TakeOver {
				takeOver = append(takeOver, a.Name)
				assert.Equal(t, channelsapi.ManifestHash([]byte(files["addons/"+a.Manifest])), a.ManifestHash, "the channel names what is stored")
			}
			assert.Equal(t, step.takeOver, takeOver)

			again, _ := s.update(t, cloudup.TargetDirect)
			assert.Equal(t, "No changes need to be applied\n", again)
		})
	}
}

// Client-side mode writes the built-in addon's very files: switching a default cluster between
// built-in and client-side has nothing to write, in either direction, while server-side replaces
// the addon as turning the operator on does.
func TestClientSideModeTransitions(t *testing.T) {
	s := newGoldenStore(t, "minimal")
	on, _ := featureflag.Parse("ClusterAddons,UseAddonOperators")
	setMode := func(t *testing.T, mode string) {
		cluster, _, err := s.clientset.GetCluster(s.name)
		require.NoError(t, err)
		if cluster.Spec.KubeDNS == nil {
			cluster.Spec.KubeDNS = &kops.KubeDNSConfig{}
		}
		cluster.Spec.KubeDNS.OperatorMode = mode
		require.NoError(t, s.clientset.UpdateCluster(cluster))
	}
	_, result := s.update(t, cloudup.TargetDirect)
	require.True(t, result.Changed)

	steps := []struct {
		name, mode string
		flags      featureflag.Set
		wantReport []string
	}{
		{"built in to client-side", kops.OperatorModeClientSide, on, []string{"No changes need to be applied\n"}},
		{"client-side without the flags", kops.OperatorModeClientSide, featureflag.Set{}, []string{"No changes need to be applied\n"}},
		{"client-side to server-side", kops.OperatorModeServerSide, on, []string{
			"  ManagedFile/addons/operator.coredns.addons.x-k8s.io/0.2.0.yaml\n",
			"+  takeOver:\n",
		}},
		{"server-side to client-side", kops.OperatorModeClientSide, on, []string{
			"-  takeOver:\n",
			"  \toperator.coredns.addons.x-k8s.io\taddons/operator.coredns.addons.x-k8s.io/0.2.0.yaml\n",
		}},
	}
	for _, step := range steps {
		t.Run(step.name, func(t *testing.T) {
			setMode(t, step.mode)
			s.flags = step.flags
			report, _ := s.update(t, cloudup.TargetDryRun)
			for _, want := range step.wantReport {
				assert.Contains(t, report, want)
			}
			s.update(t, cloudup.TargetDirect)
			again, _ := s.update(t, cloudup.TargetDirect)
			assert.Equal(t, "No changes need to be applied\n", again)
		})
	}
}
