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

package nodecluster

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// Main starts one cluster for a test package, hands it to setup, runs the tests and stops the
// cluster, in TestMain:
//
//	var cluster *nodecluster.Cluster
//	func TestMain(m *testing.M) { nodecluster.Main(m, func(c *nodecluster.Cluster) { cluster = c }) }
//
// Where the machine cannot run containers at all (not root, no cgroups or namespaces) it prints
// one line saying why and runs no test. Anything else that keeps the cluster from starting
// (packages or binaries missing, a daemon that fails) fails the package. The cluster's logs are
// kept, and their folder printed, when a test fails.
func Main(m *testing.M, setup func(*Cluster)) {
	os.Exit(runMain(m, setup))
}

func runMain(m *testing.M, setup func(*Cluster)) int {
	flag.Parse()
	c, cleanup, err := StartForTests(context.Background())
	var unsupported *UnsupportedError
	if errors.As(err, &unsupported) {
		fmt.Printf("SKIP node tests: %v\n", err)
		return 0
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "FAIL: starting the cluster: %v\n", err)
		return 1
	}
	// An interrupted run (Ctrl-C, a CI timeout that signals) must not leave the node running.
	// (go test -timeout kills the process outright: make cluster-down cannot help then either, the
	// state folder's record lets `hack/cluster.sh down`-like cleanup find it; see Down.)
	signals := make(chan os.Signal, 1)
	signal.Notify(signals, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(signals)
	go func() {
		if sig, ok := <-signals; ok {
			fmt.Fprintf(os.Stderr, "%v: stopping the cluster\n", sig)
			cleanup(false)
			os.Exit(1)
		}
	}()
	setup(c)
	code := m.Run()
	cleanup(code == 0)
	return code
}

// tempPrefix names the state folders of the tests' clusters under the temporary directory.
const tempPrefix = "kops-node-"

// The tests' clusters: two nodes, so that a test can spread pods and lose one node; and a node
// controller that notices a node gone within TestNodeMonitorGracePeriod rather than Kubernetes's
// default grace period, so that a node-loss test waits seconds, not a minute, for the endpoints to change.
const (
	TestNodes                  = 2
	TestNodeMonitorGracePeriod = 15 * time.Second
)

// StartForTests builds the images (when their sources changed, a few seconds otherwise) and
// starts a cluster of TestNodes nodes in a new folder under the system's temporary directory, with the binaries
// hack/build-test-node.sh built. cleanup(removeLogs) stops it and removes its folder, or keeps the
// logs and prints where they are.
func StartForTests(ctx context.Context) (c *Cluster, cleanup func(removeLogs bool), err error) {
	wd, err := os.Getwd()
	if err != nil {
		return nil, nil, err
	}
	root, err := RepoRoot(wd)
	if err != nil {
		return nil, nil, err
	}
	nodeBin, apiBin := BinDirs(root)
	// Short: containerd's socket is in it, and a unix socket path is at most 107 bytes.
	dir, err := os.MkdirTemp("", tempPrefix)
	if err != nil {
		return nil, nil, err
	}
	opts := Options{StateDir: dir, NodeBinDir: nodeBin, APIServerBinDir: apiBin, Owned: true,
		Nodes: TestNodes, NodeMonitorGracePeriod: TestNodeMonitorGracePeriod}
	if testing.Verbose() {
		opts.Progress = os.Stdout
	}
	if err := Preflight(opts); err != nil {
		_ = os.RemoveAll(dir)
		return nil, nil, err
	}
	// A test binary killed by go test -timeout left its cluster running: stop it now.
	if cleaned, err := StopOrphans(filepath.Join(os.TempDir(), tempPrefix+"*")); err != nil {
		_ = os.RemoveAll(dir)
		return nil, nil, err
	} else if len(cleaned) > 0 {
		fmt.Fprintf(os.Stderr, "stopped the clusters of test runs that died: %v\n", cleaned)
	}
	images, err := BuildImages(ctx, root, nodeBin, filepath.Join(root, "_output", "images", "node"))
	if err != nil {
		_ = os.RemoveAll(dir)
		return nil, nil, err
	}
	opts.Images = images.All()
	start := time.Now()
	c, err = Up(ctx, opts)
	if err != nil {
		return nil, nil, fmt.Errorf("%w (logs in %s)", err, filepath.Join(dir, "logs"))
	}
	if testing.Verbose() {
		fmt.Printf("%d-node cluster up in %.1fs (folder %s)\n", TestNodes, time.Since(start).Seconds(), dir)
	}
	cleanup = func(removeLogs bool) {
		if err := c.Down(); err != nil {
			fmt.Fprintf(os.Stderr, "stopping the cluster in %s: %v\n", dir, err)
			return
		}
		if removeLogs {
			_ = os.RemoveAll(dir)
			return
		}
		fmt.Fprintf(os.Stderr, "the cluster's logs: %s\n", filepath.Join(dir, "logs"))
	}
	return c, cleanup, nil
}

// Start starts a cluster of the test's own, next to the package's (a test that must begin from
// a fresh cluster, or leaves its cluster changed), and stops it when the test ends, keeping its
// logs when the test failed. Where the machine cannot run containers the test skips.
func Start(t testing.TB) *Cluster {
	t.Helper()
	c, cleanup, err := StartForTests(context.Background())
	var unsupported *UnsupportedError
	if errors.As(err, &unsupported) {
		t.Skip(err.Error())
	}
	if err != nil {
		t.Fatalf("starting a cluster: %v", err)
	}
	t.Cleanup(func() { cleanup(!t.Failed()) })
	return c
}
