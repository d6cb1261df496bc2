package client

import (
	"sync"

	"k8s.io/kops/pkg/apis/kops"
	"k8s.io/kops/pkg/kopscodecs"
)

// readParallelism bounds the reads one listing has in flight: on an object store each read is a
// round trip, so a thousand clusters read one after another take a thousand round trips; a few
// dozen at once hide that without being throttled (S3 allows thousands per prefix and second).
const readParallelism = 32

// inParallel calls f(0..n-1) with at most readParallelism calls at once and returns when all are done.
func inParallel(n int, f func(i int)) {
	work := make(chan int)
	var wg sync.WaitGroup
	for range min(n, readParallelism) {
		wg.Go(func() {
			for i := range work {
				f(i)
			}
		})
	}
	for i := range n {
		work <- i
	}
	close(work)
	wg.Wait()
}

// ClusterRead is one cluster's GetCluster result.
type ClusterRead struct {
	Cluster  *kops.Cluster
	Warnings []kopscodecs.Warning
	Err      error
}

// GetClusters reads the named clusters with bounded parallel reads; the results are in the order
// of names, each with its own error.
func (c *Clientset) GetClusters(names []string) []ClusterRead {
	out := make([]ClusterRead, len(names))
	inParallel(len(names), func(i int) {
		out[i].Cluster, out[i].Warnings, out[i].Err = c.GetCluster(names[i])
	})
	return out
}
