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
	"fmt"
	"os"
	"testing"

	"k8s.io/kops/tests/e2e/nodecluster"
)

// cluster is the package's one cluster, started once for all its tests: a test that changes the
// cluster puts it back as it found it, or names what it leaves.
var cluster *nodecluster.Cluster

func TestMain(m *testing.M) {
	nodecluster.Main(m, func(c *nodecluster.Cluster) {
		cluster = c
		// The tarballs just imported, before anything rebuilds them (see tarballImages).
		var err error
		if tarballImages, err = readTarballImages(); err != nil {
			fmt.Fprintf(os.Stderr, "reading the image tarballs: %v\n", err)
		}
	})
}
