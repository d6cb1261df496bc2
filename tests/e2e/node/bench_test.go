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
	"time"

	"github.com/stretchr/testify/require"

	"k8s.io/kops/tests/e2e/nodecluster"
)

// The node benchmarks measure what the tests only require to happen; run them with
// `go test -run XXX -bench . ./node/` (each starts from the package's cluster, built-in CoreDNS).

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

// BenchmarkDNSLatency reports the latency of lookups of a cluster name through the kube-dns
// ClusterIP, from a pod, at 50 lookups a second for 10 seconds per iteration: p50 and p99 in ms.
func BenchmarkDNSLatency(b *testing.B) {
	flow := newKopsFlow(b, "")
	flow.switchTo(b, builtIn)
	// On a fresh node kube-proxy may not have programmed kube-dns's ClusterIP yet when CoreDNS is
	// available: the measurement starts once a lookup through it is answered.
	_, err := cluster.RunPod(context.Background(), nodecluster.TestClientPod("default", "dns-warmup"))
	require.NoError(b, err)
	waitAnswer(b, "dns-warmup", "kubernetes.default.svc.cluster.local.", "100.64.0.1")
	require.NoError(b, cluster.DeletePod(context.Background(), "default", "dns-warmup"))
	b.ResetTimer()
	var p50, p99 float64
	for i := 0; i < b.N; i++ {
		name := "dns-latency"
		resolverPod(b, name, 50, "kubernetes.default.svc.cluster.local.")
		time.Sleep(10 * time.Second)
		rep := readReport(b, name)
		require.Zero(b, rep.Failed, rep.LastError)
		p50, p99 = p50+rep.P50, p99+rep.P99
		require.NoError(b, cluster.DeletePod(context.Background(), "default", name))
	}
	b.ReportMetric(p50/float64(b.N), "p50-ms")
	b.ReportMetric(p99/float64(b.N), "p99-ms")
	b.ReportMetric(0, "ns/op")
}

// BenchmarkFlagFlip reports how long one switch of CoreDNS's mode takes as a user makes it (edit,
// update --yes, channels apply) until CoreDNS runs as the new mode says, averaged over
// built-in → ServerSide → ClientSide → built-in.
func BenchmarkFlagFlip(b *testing.B) {
	flow := newKopsFlow(b, "")
	flow.switchTo(b, builtIn)
	var total time.Duration
	flips := 0
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, mode := range []dnsMode{serverSide, clientSide, builtIn} {
			total += flow.switchTo(b, mode)
			flips++
		}
	}
	b.ReportMetric(total.Seconds()/float64(flips), "s/flip")
}

// BenchmarkCorefileChangeServed reports the time from a Corefile change in the cluster spec (a
// new stub domain, kops edit cluster) through update --yes and channels apply to the first answer
// CoreDNS serves from it, in ServerSide mode (s/change), and from the end of channels apply
// (s-after-apply). The Corefile's checksum on the pod template rolls CoreDNS out, so the new pods
// start with the new Corefile.
func BenchmarkCorefileChangeServed(b *testing.B) {
	startStubDNS(b)
	flow := newKopsFlow(b, "")
	flow.withStubResolvers(b)
	flow.switchTo(b, serverSide)
	b.Cleanup(func() { flow.switchTo(b, builtIn) })
	_, err := cluster.RunPod(context.Background(), nodecluster.TestClientPod("default", "corefile-bench"))
	require.NoError(b, err)
	b.Cleanup(func() { _ = cluster.DeletePod(context.Background(), "default", "corefile-bench") })
	waitAnswer(b, "corefile-bench", upstreamName, upstreamAddress)
	var total, afterApply time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		fromEdit, fromApply := flow.corefileChangeTimed(b, "corefile-bench")
		total += fromEdit
		afterApply += fromApply
		b.StopTimer()
		flow.removeExtraDomain(b, "corefile-bench")
		b.StartTimer()
	}
	b.ReportMetric(total.Seconds()/float64(b.N), "s/change")
	b.ReportMetric(afterApply.Seconds()/float64(b.N), "s-after-apply")
}
