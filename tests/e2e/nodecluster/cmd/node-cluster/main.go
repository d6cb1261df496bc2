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

package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"k8s.io/kops/tests/e2e/nodecluster"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "node-cluster:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	if len(args) == 0 {
		return errors.New(usage)
	}
	fs := flag.NewFlagSet(args[0], flag.ContinueOnError)
	stateDir := fs.String("state-dir", "", "the cluster's folder (required)")
	name := fs.String("name", nodecluster.DefaultClusterName, "the kops cluster's name: the kubeconfig's context")
	nodes := fs.Int("nodes", 1, "how many nodes up starts (the first also runs the control plane)")
	if err := fs.Parse(args[1:]); err != nil {
		return err
	}
	if *stateDir == "" || fs.NArg() != 0 {
		return errors.New(usage)
	}
	if *nodes < 1 || *nodes > 50 {
		return fmt.Errorf("--nodes %d: want 1 to 50", *nodes)
	}
	switch args[0] {
	case "up":
		return up(*stateDir, *name, *nodes)
	case "down":
		if err := nodecluster.Down(*stateDir); err != nil {
			return err
		}
		fmt.Printf("cluster in %s stopped; its logs stay in %s\n", *stateDir, filepath.Join(*stateDir, "logs"))
		return nil
	case "status":
		c, err := nodecluster.Load(*stateDir)
		if err != nil {
			return err
		}
		fmt.Printf("cluster %s is running: %s, kubeconfig %s\n", c.Name, describeNodes(c), c.Kubeconfig)
		return nil
	default:
		return fmt.Errorf("unknown command %q: want up, down or status", args[0])
	}
}

const usage = "usage: node-cluster up|down|status --state-dir DIR [--name NAME] [--nodes N]"

// describeNodes names each node and its addresses.
func describeNodes(c *nodecluster.Cluster) string {
	s := ""
	for i, n := range c.Nodes {
		if i > 0 {
			s += ", "
		}
		s += fmt.Sprintf("node %s at %s and %s", n.Name, n.IP, n.IPv6)
	}
	return s
}

func up(stateDir, name string, nodes int) error {
	if c, err := nodecluster.Load(stateDir); err == nil {
		fmt.Printf("cluster %s is already running (%s)\n", c.Name, describeNodes(c))
		printUsage(c)
		return nil
	}
	wd, err := os.Getwd()
	if err != nil {
		return err
	}
	root, err := nodecluster.RepoRoot(wd)
	if err != nil {
		return err
	}
	// Interrupted, Up stops what it started before returning.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	nodeBin, apiBin := nodecluster.BinDirs(root)
	opts := nodecluster.Options{StateDir: stateDir, ClusterName: name, NodeBinDir: nodeBin, APIServerBinDir: apiBin, Progress: os.Stdout, Nodes: nodes}
	if err := nodecluster.Preflight(opts); err != nil {
		return err
	}
	fmt.Println("building the images (make images, hack/tools/images/nodeimages)...")
	images, err := nodecluster.BuildImages(ctx, root, nodeBin, filepath.Join(root, "_output", "images", "node"))
	if err != nil {
		return err
	}
	opts.Images = images.All()
	c, err := nodecluster.Up(ctx, opts)
	if err != nil {
		return err
	}
	printUsage(c)
	return nil
}

func printUsage(c *nodecluster.Cluster) {
	fmt.Printf(`
The cluster %[1]s is up. Its kubeconfig (context %[1]s):
    export KUBECONFIG=%[2]s
Daemon logs: %[3]s
Stop it with: make cluster-down
Commands on a node:
`, c.Name, c.Kubeconfig, filepath.Join(c.StateDir, "logs"))
	for _, n := range c.Nodes {
		fmt.Printf("    %s: nsenter --net=%s --mount=%s -- COMMAND\n", n.Name, n.NetNS, n.MountNS)
	}
}
