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

package client_test

import (
	"fmt"
	"net/http"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	"k8s.io/kops/pkg/client"
	"k8s.io/kops/pkg/kopscodecs"
	"k8s.io/kops/util/pkg/vfs"
	"k8s.io/kops/util/pkg/vfs/s3store"
	"k8s.io/kops/util/pkg/vfs/s3store/s3test"
)

// countingTransport counts the HTTP requests a store sends, retries included.
type countingTransport struct {
	n    atomic.Int64
	next http.RoundTripper
}

func (c *countingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	c.n.Add(1)
	return c.next.RoundTrip(r)
}

// countedS3 is a clientset over a fresh bucket of the test server whose requests are counted.
func countedS3(tb testing.TB) (*client.Clientset, *countingTransport) {
	srv := s3test.Shared(tb)
	counter := &countingTransport{next: http.DefaultTransport.(*http.Transport).Clone()}
	counter.next.(*http.Transport).MaxIdleConnsPerHost = 64
	settings := srv.Settings()
	settings.Transport = counter
	base, err := vfs.NewContext(nil).WithS3(s3store.New(settings)).ParsePath("s3://" + srv.NewBucket(tb) + "/kops")
	require.NoError(tb, err)
	return client.New(base), counter
}

// fillClusters stores n clusters' configs directly, in parallel (the fixture, not what is measured).
func fillClusters(tb testing.TB, c *client.Clientset, n int) {
	errs := make(chan error, n)
	sem := make(chan struct{}, 32)
	for i := range n {
		sem <- struct{}{}
		go func() {
			defer func() { <-sem }()
			name := fmt.Sprintf("c%04d.k8s.local", i)
			data, err := kopscodecs.EncodeCluster(testCluster(name))
			if err == nil {
				err = c.Base().Join(name, "config").WriteFile(data)
			}
			errs <- err
		}()
	}
	for range n {
		require.NoError(tb, <-errs)
	}
}

// TestListThousandClustersS3: a bucket with 1,000 clusters lists and reads them all (the speed is
// BenchmarkS3GetClusters1000's), with a number of requests that grows with the clusters, not more.
func TestListThousandClustersS3(t *testing.T) {
	c, counter := countedS3(t)
	fillClusters(t, c, 1000)
	counter.n.Store(0)
	names, reads, err := c.GetAllClusters()
	require.NoError(t, err)
	require.Len(t, names, 1000)
	for i, r := range reads {
		require.NoError(t, r.Err)
		require.Equal(t, names[i], r.Cluster.Name)
	}
	// One listing page per 1,000 folders and a GET per config.
	require.LessOrEqual(t, counter.n.Load(), int64(1000+2))
}

func reportRequests(b *testing.B, counter *countingTransport) {
	b.ReportMetric(float64(counter.n.Load())/float64(b.N), "requests/op")
}

// BenchmarkS3GetCluster reads one cluster.
func BenchmarkS3GetCluster(b *testing.B) {
	c, counter := countedS3(b)
	require.NoError(b, c.CreateCluster(testNewCluster("get.k8s.local", false)))
	counter.n.Store(0)
	for b.Loop() {
		_, _, err := c.GetCluster("get.k8s.local")
		require.NoError(b, err)
	}
	reportRequests(b, counter)
}

// BenchmarkS3CreateCluster creates a cluster with its groups: the lease, the checks and the writes.
func BenchmarkS3CreateCluster(b *testing.B) {
	c, counter := countedS3(b)
	i := 0
	counter.n.Store(0)
	for b.Loop() {
		require.NoError(b, c.CreateCluster(testNewCluster(fmt.Sprintf("c%d.k8s.local", i), false)))
		i++
	}
	reportRequests(b, counter)
}

// BenchmarkS3UpdateCluster is an edit's store work: read with its revision, write if unchanged.
func BenchmarkS3UpdateCluster(b *testing.B) {
	c, counter := countedS3(b)
	require.NoError(b, c.CreateCluster(testNewCluster("upd.k8s.local", false)))
	counter.n.Store(0)
	for b.Loop() {
		cluster, rev, _, err := c.GetClusterRevision("upd.k8s.local")
		require.NoError(b, err)
		cluster.Spec.KubernetesVersion = fmt.Sprintf("1.34.%d", counter.n.Load()%50)
		require.NoError(b, c.UpdateClusterIfUnchanged(cluster, rev))
	}
	reportRequests(b, counter)
}

// BenchmarkS3GetClusters1000 is `kops get clusters`'s store work (GetAllClusters) over a bucket of
// 1,000 clusters.
func BenchmarkS3GetClusters1000(b *testing.B) {
	c, counter := countedS3(b)
	fillClusters(b, c, 1000)
	counter.n.Store(0)
	for b.Loop() {
		_, reads, err := c.GetAllClusters()
		require.NoError(b, err)
		for _, r := range reads {
			require.NoError(b, r.Err)
		}
	}
	reportRequests(b, counter)
}
