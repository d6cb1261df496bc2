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

package nodesetup

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"k8s.io/kops/pkg/apis/kops"
	"k8s.io/kops/pkg/model"
	"k8s.io/kops/upup/pkg/fi"
	"k8s.io/kops/upup/pkg/fi/fitasks"
)

func group(name string, role kops.InstanceGroupRole) *kops.InstanceGroup {
	ig := &kops.InstanceGroup{Spec: kops.InstanceGroupSpec{Role: role}}
	ig.Name = name
	return ig
}

func TestBuilder(t *testing.T) {
	c := testCluster("Block", false, &kops.NetworkingSpec{Calico: &kops.CNIPresence{}})
	ctx := &model.KopsModelContext{Cluster: c, InstanceGroups: []*kops.InstanceGroup{
		group("master-a", kops.RoleMaster), group("cp-b", kops.RoleControlPlane), group("nodes", kops.RoleNode),
		group("api", kops.RoleAPIServer), group("bastions", kops.RoleBastion),
	}}
	mc := &fi.ModelBuilderContext{}
	require.NoError(t, (&Builder{Context: ctx}).Build(mc))
	files, err := Files(c, nil)
	require.NoError(t, err)
	got := map[string][]byte{}
	var ledger *fitasks.LedgerUpdate
	var stale *fitasks.StaleFiles
	for _, task := range mc.Tasks() {
		switch task := task.(type) {
		case *fitasks.ManagedFile:
			got[task.Location] = task.Contents
			assert.Equal(t, []fi.TaskKey{{Kind: fitasks.LedgerKind, Name: LedgerLocation}}, task.Deps, "recorded before it is written")
		case *fitasks.LedgerUpdate:
			ledger = task
		case *fitasks.StaleFiles:
			stale = task
		default:
			t.Fatalf("unexpected task %T", task)
		}
	}
	require.NotNil(t, ledger)
	require.NotNil(t, stale)
	assert.Equal(t, got, ledger.Files, "the ledger records every node file")
	assert.False(t, ledger.RefuseForeign, "node files are kops's by their names")
	assert.ElementsMatch(t, stale.Keep, keys(got), "nothing written is stale")
	assert.Equal(t, "igconfig/", stale.Under)
	want := map[string][]byte{}
	for _, dir := range []string{"igconfig/controlplane/master-a", "igconfig/controlplane/cp-b", "igconfig/node/nodes", "igconfig/apiserver/api"} {
		want[dir+"/kops-pod-metadata-access.sh"] = files.Script
		want[dir+"/kops-pod-metadata-access.service"] = files.Unit
		want[dir+"/kubelet-10-kops-pod-metadata-access.conf"] = files.KubeletDropIn
		want[dir+"/kops-pod-metadata-access-guard.service"] = files.GuardUnit
	}
	assert.Equal(t, want, got, "every group but bastions, under kops's igconfig/<role>/<group>/")
}

func keys(m map[string][]byte) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

func TestBuilderError(t *testing.T) {
	c := testCluster("Block", false, nil)
	c.Spec.PodMetadataAccess.HostInterface = "lo"
	ctx := &model.KopsModelContext{Cluster: c, InstanceGroups: []*kops.InstanceGroup{group("nodes", kops.RoleNode)}}
	err := (&Builder{Context: ctx}).Build(&fi.ModelBuilderContext{})
	assert.ErrorContains(t, err, "spec.podMetadataAccess.hostInterface: Invalid value")
}
