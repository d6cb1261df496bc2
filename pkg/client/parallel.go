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

package client

import (
	"errors"
	"fmt"
	"io/fs"
	"sync"
	"syscall"

	"k8s.io/kops/pkg/apis/kops"
	"k8s.io/kops/pkg/kopscodecs"
)

// readParallelism bounds one listing's reads in flight: on an object store each read is a round trip.
const readParallelism = 32

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

type ClusterRead struct {
	Cluster  *kops.Cluster
	Warnings []kopscodecs.Warning
	Err      error
}

// GetClusters reads the named clusters in parallel; results are in the order of names.
func (c *Clientset) GetClusters(names []string) []ClusterRead {
	out := make([]ClusterRead, len(names))
	inParallel(len(names), func(i int) {
		out[i].Cluster, out[i].Warnings, out[i].Err = c.GetCluster(names[i])
	})
	return out
}

// GetAllClusters is ListClusters then GetClusters with one read per folder instead of two; a folder
// without a config is left out.
func (c *Clientset) GetAllClusters() ([]string, []ClusterRead, error) {
	dirs, err := c.base.ReadDir()
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, fmt.Errorf("listing clusters in %s: %w", c.base, err)
	}
	reads := make([]ClusterRead, len(dirs))
	isCluster := make([]bool, len(dirs))
	inParallel(len(dirs), func(i int) {
		name := dirs[i].Base()
		if ValidateClusterName(name) != nil {
			ok, err := dirs[i].Join("config").Exists()
			if errors.Is(err, syscall.ENOTDIR) {
				return
			}
			isCluster[i], reads[i].Err = ok || err != nil, err
			if ok {
				reads[i].Err = ValidateClusterName(name)
			}
			return
		}
		r := &reads[i]
		r.Cluster, r.Warnings, r.Err = c.GetCluster(name)
		isCluster[i] = !errors.Is(r.Err, ErrClusterNotFound) && !errors.Is(r.Err, syscall.ENOTDIR)
	})
	var names []string
	var out []ClusterRead
	for i, d := range dirs {
		if isCluster[i] {
			names = append(names, d.Base())
			out = append(out, reads[i])
		}
	}
	return names, out, nil
}
