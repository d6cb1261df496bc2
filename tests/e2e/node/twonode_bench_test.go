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

package node

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"k8s.io/kops/tests/e2e/nodecluster"
)

// BenchmarkTwoNodeClusterUp starts a two-node cluster, as the node tests use, from the cached
// binaries and images, next to the package's, until both nodes are Ready, their kube-proxies
// synced and pods can be created; stopping it is outside the timer. It reports the resident
// memory of all the cluster's processes once it is up.
//
//	go test ./node/ -run '^$' -bench BenchmarkTwoNodeClusterUp -benchtime 2x
func BenchmarkTwoNodeClusterUp(b *testing.B) {
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
		c, err := nodecluster.Up(ctx, nodecluster.Options{StateDir: dir, NodeBinDir: nodeBin, APIServerBinDir: apiBin, Images: images.All(), Nodes: 2})
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

// BenchmarkNodeLossDNSRecovered loses node-2 under a client on node-1 resolving at 25 lookups a
// second (TestNodeLossDNS's setting: built-in CoreDNS, one pod per node, the tests' node monitor
// grace period of 15 s) and reports the seconds until the first node's kube-proxy answers only
// from the remaining CoreDNS pod, the failed lookups, and the window from the first failure to the
// last. time/op includes a settling time of the lookup timeout and 3 s after the update; bringing
// the node back is outside the timer.
//
//	go test ./node/ -run '^$' -bench BenchmarkNodeLossDNSRecovered -benchtime 1x
func BenchmarkNodeLossDNSRecovered(b *testing.B) {
	flow := newKopsFlow(b, "")
	flow.switchTo(b, builtIn)
	b.Cleanup(func() { restoreAfterLoss(b) })
	var recovered, failed, window float64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		coreDNSOnEveryNode(b)
		name := "node-loss-bench"
		startResolver(b, name)
		b.StartTimer()
		loss := loseNode(b, name)
		b.StopTimer()
		recovered += loss.ProxyUpdated.Seconds()
		failed += float64(loss.Failed)
		window += (loss.LastFailure - loss.FirstFailure).Seconds()
		require.NoError(b, cluster.DeletePod(context.Background(), "default", name))
		require.NoError(b, cluster.StartNode(context.Background(), lostNode))
		b.StartTimer()
	}
	b.ReportMetric(recovered/float64(b.N), "s-to-proxy-update")
	b.ReportMetric(failed/float64(b.N), "failed-lookups")
	b.ReportMetric(window/float64(b.N), "failure-window-s")
}
