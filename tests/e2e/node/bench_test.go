package node

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"k8s.io/kops/tests/e2e/nodecluster"
)

// BenchmarkClusterUp starts a second cluster from the cached binaries and images, next to the
// package's, until its node is Ready, kube-proxy has synced and pods can be created; stopping it
// is outside the timer. The images are imported in each iteration (part of every start). It also
// reports the resident memory of all the cluster's processes once it is up.
//
//	go test ./node/ -run '^$' -bench BenchmarkClusterUp -benchtime 3x
func BenchmarkClusterUp(b *testing.B) {
	ctx := context.Background()
	root, err := nodecluster.RepoRoot(".")
	require.NoError(b, err)
	nodeBin, apiBin := nodecluster.BinDirs(root)
	images, err := nodecluster.BuildImages(ctx, root, nodeBin, filepath.Join(root, "_output", "images", "node"))
	require.NoError(b, err)
	var resident float64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		dir, err := os.MkdirTemp("", "kops-node-bench-")
		require.NoError(b, err)
		c, err := nodecluster.Up(ctx, nodecluster.Options{StateDir: dir, NodeBinDir: nodeBin, APIServerBinDir: apiBin, Images: images.All()})
		require.NoError(b, err)
		b.StopTimer()
		rss, err := c.ResidentBytes()
		require.NoError(b, err)
		resident += float64(rss) / (1 << 20)
		require.NoError(b, c.Down())
		require.NoError(b, os.RemoveAll(dir))
		b.StartTimer()
	}
	b.ReportMetric(resident/float64(b.N), "resident-MB")
}

// BenchmarkDNSLatency renders and applies the built-in CoreDNS and has a client pod look
// kubernetes.default.svc.cluster.local up through kube-dns's ClusterIP at 50 queries per second
// for 10 s per iteration; it reports the latency's p50 and p99 and the failed lookups.
//
//	go test ./node/ -run '^$' -bench BenchmarkDNSLatency -benchtime 3x
func BenchmarkDNSLatency(b *testing.B) {
	ctx := context.Background()
	flow := newKopsFlow(b, "")
	flow.updateAndApply(b)
	waitDeploymentAvailable(b, "kube-system", "coredns")
	_, err := cluster.RunPod(ctx, nodecluster.TestClientPod("default", "dns-bench"))
	require.NoError(b, err)
	b.Cleanup(func() { _ = cluster.DeletePod(context.Background(), "default", "dns-bench") })

	var p50, p99 float64
	var lookups, failed int
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r, err := cluster.Exec(ctx, "default", "dns-bench", "client", "/testclient", "dns",
			"--name", "kubernetes.default.svc.cluster.local.", "--server", nodecluster.KubeDNSServerIP,
			"--qps", "50", "--duration", "10s", "--report", "1h")
		require.NoError(b, err)
		require.Equal(b, 0, r.ExitCode, r.Stderr)
		lines := strings.Split(strings.TrimSpace(r.Stdout), "\n")
		var final struct {
			Lookups int     `json:"lookups"`
			Failed  int     `json:"failed"`
			P50     float64 `json:"p50_ms"`
			P99     float64 `json:"p99_ms"`
		}
		require.NoError(b, json.Unmarshal([]byte(lines[len(lines)-1]), &final), r.Stdout)
		p50, p99 = max(p50, final.P50), max(p99, final.P99)
		lookups += final.Lookups
		failed += final.Failed
	}
	b.ReportMetric(p50, "p50-ms")
	b.ReportMetric(p99, "p99-ms")
	b.ReportMetric(float64(lookups)/float64(b.N), "lookups/op")
	b.ReportMetric(float64(failed), "failed")
}
