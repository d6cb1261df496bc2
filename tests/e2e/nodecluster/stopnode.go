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
	"fmt"
	"os"
	"path/filepath"
	"slices"
)

// daemonSpec is one of a node's daemons and how it starts.
type daemonSpec struct {
	name, binary string
	args         []string
}

// nodeDaemons are the daemons every node runs, in the order they start.
func nodeDaemons(n nodeLayout, nodeBinDir string) []daemonSpec {
	return []daemonSpec{
		{"containerd", "containerd", []string{"--config", filepath.Join(n.p.config(), "containerd.toml")}},
		{"kubelet", filepath.Join(nodeBinDir, "kubelet"), kubeletArgs(n)},
		{"kube-proxy", filepath.Join(nodeBinDir, "kube-proxy"), []string{"--config=" + filepath.Join(n.p.config(), "kube-proxy.yaml")}},
	}
}

// workerNode is the layout of the node named name, which must not be the first (its loss would be
// the control plane's).
func (c *Cluster) workerNode(name string) (nodeLayout, error) {
	n, err := c.Node(name)
	if err != nil {
		return nodeLayout{}, err
	}
	if n.layout.index == 1 {
		return nodeLayout{}, fmt.Errorf("%s runs the control plane and cannot be stopped alone: stop another node, or the cluster with Down", name)
	}
	return n.layout, nil
}

// StopNode makes the node named name a machine that died: its link goes down first (from that
// moment nothing it runs answers, and nothing sent to it gets an error back: packets are lost, as
// with a dead machine), then its kubelet, kube-proxy and containerd and every container of its pods
// are killed (SIGKILL, no grace), and its mount namespace is dropped, which frees its pods'
// network namespaces (a reboot clears /run too). The API server still has its Node and pods:
// the node controller marks them not ready after Options.NodeMonitorGracePeriod, as in a real
// cluster. The first node runs the control plane and cannot be stopped. StartNode brings it back.
func (c *Cluster) StopNode(ctx context.Context, name string) error {
	n, err := c.workerNode(name)
	if err != nil {
		return err
	}
	rec, err := readRecord(c.paths)
	if err != nil {
		return err
	}
	if slices.Contains(rec.Stopped, name) {
		return fmt.Errorf("%s is stopped already", name)
	}
	if err := setNodeLink(n, false); err != nil {
		return fmt.Errorf("taking %s's link down: %w", name, err)
	}
	var pids []int
	var kept []process
	for _, proc := range rec.Processes {
		if proc.Name == n.daemon("kubelet") || proc.Name == n.daemon("kube-proxy") || proc.Name == n.daemon("containerd") {
			if proc.alive() {
				pids = append(pids, proc.PID)
			}
			continue
		}
		kept = append(kept, proc)
	}
	var errs []error
	if err := killAll(pids); err != nil {
		errs = append(errs, err)
	}
	// The shims and the pods' processes, and whatever a test started on the node.
	if left, err := cgroupProcesses(n.cgroup(), ""); err != nil {
		errs = append(errs, err)
	} else if err := killAll(left); err != nil {
		errs = append(errs, err)
	}
	if err := teardownMountNamespace(n.p); err != nil {
		errs = append(errs, err)
	}
	// What a reboot loses: containerd's and runc's state (under /run on a machine). The images and
	// kubelet's folder stay, as on a disk.
	for _, dir := range []string{filepath.Join(n.p.containerd(), "state"), filepath.Join(n.p.containerd(), "runc")} {
		if err := os.RemoveAll(dir); err != nil {
			errs = append(errs, err)
		}
	}
	rec.Processes = kept
	rec.Stopped = append(rec.Stopped, name)
	if err := writeRecord(c.paths, rec); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// StartNode brings back a node StopNode stopped, as its machine rebooting: a fresh mount
// namespace, its link up, containerd, kubelet and kube-proxy started; it returns once the node is
// Ready again and its kube-proxy healthy. The pods the API server still had on it are started
// again by its kubelet.
func (c *Cluster) StartNode(ctx context.Context, name string) error {
	n, err := c.workerNode(name)
	if err != nil {
		return err
	}
	rec, err := readRecord(c.paths)
	if err != nil {
		return err
	}
	if !slices.Contains(rec.Stopped, name) {
		return fmt.Errorf("%s is not stopped", name)
	}
	if err := setupMountNamespace(n.p); err != nil {
		return err
	}
	if err := setNodeLink(n, true); err != nil {
		return fmt.Errorf("bringing %s's link up: %w", name, err)
	}
	rec.Stopped = slices.DeleteFunc(rec.Stopped, func(s string) bool { return s == name })
	for _, d := range nodeDaemons(n, rec.NodeBinDir) {
		proc, err := startDaemon(n, n.daemon(d.name), d.binary, d.args...)
		if err != nil {
			return err
		}
		rec.Processes = append(rec.Processes, proc)
		if err := writeRecord(c.paths, rec); err != nil {
			return err
		}
		if d.name == "containerd" {
			if err := c.waitContainerd(ctx, rec, n); err != nil {
				return err
			}
		}
	}
	return c.waitNodeReady(ctx, rec, n)
}
