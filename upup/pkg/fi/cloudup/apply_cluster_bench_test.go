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

package cloudup

import (
	"context"
	"fmt"
	"io"
	"testing"

	"github.com/stretchr/testify/require"

	"k8s.io/kops/pkg/apis/kops"
	"k8s.io/kops/pkg/client"
	"k8s.io/kops/pkg/featureflag"
	"k8s.io/kops/util/pkg/vfs"
)

// benchStore stores a new cluster with extra node groups in memory and returns how to update it.
func benchStore(b *testing.B, extraGroups int) ApplyClusterOptions {
	cluster, groups, err := NewCluster(NewClusterOptions{Name: "bench.example.com", Zones: []string{"us-east-2a", "us-east-2b", "us-east-2c"}, ControlPlaneZones: []string{"us-east-2a"}})
	require.NoError(b, err)
	for i := 0; i < extraGroups; i++ {
		g := groups[len(groups)-1].DeepCopy()
		g.Name = fmt.Sprintf("nodes-%03d", i)
		g.Spec.Role = kops.RoleNode
		groups = append(groups, g)
	}
	mem := &vfs.MemFS{}
	base, err := vfs.ParsePath("memfs://bench", mem)
	require.NoError(b, err)
	clientset := client.New(base)
	require.NoError(b, clientset.CreateCluster(client.NewCluster{Cluster: cluster, InstanceGroups: groups}))
	return ApplyClusterOptions{Clientset: clientset, ClusterName: cluster.Name, Flags: featureflag.Set{}, Target: TargetDryRun, Out: io.Discard}
}

func benchmarkDryRun(b *testing.B, extraGroups int) {
	benchmarkDryRunOf(b, benchStore(b, extraGroups))
}

func benchmarkDryRunOf(b *testing.B, o ApplyClusterOptions) {
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := ApplyCluster(context.Background(), o); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkUpdateClusterDryRunMinimal is `kops update cluster` (no --yes) of a new cluster.
func BenchmarkUpdateClusterDryRunMinimal(b *testing.B) { benchmarkDryRun(b, 0) }

// BenchmarkUpdateClusterDryRun200Groups is the same with 200 instance groups to load and validate.
func BenchmarkUpdateClusterDryRun200Groups(b *testing.B) { benchmarkDryRun(b, 198) }

// benchModeStore is benchStore's new cluster with the operator flags on and kubeDNS.operatorMode
// set ("" is the built-in addon, flags off), reading the embedded stable channel.
func benchModeStore(b *testing.B, mode string) ApplyClusterOptions {
	o := benchStore(b, 0)
	if mode == "" {
		return o
	}
	cluster, _, err := o.Clientset.GetCluster(o.ClusterName)
	require.NoError(b, err)
	if cluster.Spec.KubeDNS == nil {
		cluster.Spec.KubeDNS = &kops.KubeDNSConfig{}
	}
	cluster.Spec.KubeDNS.OperatorMode = mode
	require.NoError(b, o.Clientset.UpdateCluster(cluster))
	o.Flags, _ = featureflag.Parse("ClusterAddons,UseAddonOperators")
	return o
}

// BenchmarkUpdateClusterDryRunBuiltInCoreDNS, ...ClientSide and ...ServerSide compare the three
// CoreDNS modes of one new cluster: client-side mode should stay within 20% of built-in.
func BenchmarkUpdateClusterDryRunBuiltInCoreDNS(b *testing.B) {
	benchmarkDryRunOf(b, benchModeStore(b, ""))
}
func BenchmarkUpdateClusterDryRunClientSide(b *testing.B) {
	benchmarkDryRunOf(b, benchModeStore(b, kops.OperatorModeClientSide))
}
func BenchmarkUpdateClusterDryRunServerSide(b *testing.B) {
	benchmarkDryRunOf(b, benchModeStore(b, kops.OperatorModeServerSide))
}
