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
	return ApplyClusterOptions{Clientset: clientset, ClusterName: cluster.Name, Flags: featureflag.Set{}, Target: TargetDryRun, Mem: mem, Out: io.Discard}
}

func benchmarkDryRun(b *testing.B, extraGroups int) {
	o := benchStore(b, extraGroups)
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
