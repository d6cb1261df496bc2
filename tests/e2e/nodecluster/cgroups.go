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
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// The cluster's processes live in a cgroup of its own, /kops-node-<slot>: the daemons in
// <it>/node (containerd's shims follow containerd there), the pods in <it>/kubepods (kubelet's
// cgroupRoot). Stopping the cluster kills what is left in that subtree by PID, so nothing the
// cluster started outlives it, whoever started it (a daemon, a shim, a container).

// cgroupHierarchies are the mounted cgroup hierarchies: every v1 controller's directory and the
// v2 (unified) one, wherever it is.
func cgroupHierarchies() ([]string, error) {
	f, err := os.Open("/proc/self/mountinfo")
	if err != nil {
		return nil, err
	}
	defer func() { _ = f.Close() }()
	var dirs []string
	scanner := bufio.NewScanner(f)
	for scanner.Scan() {
		fields := strings.Fields(scanner.Text())
		sep := -1
		for i, field := range fields {
			if field == "-" {
				sep = i
				break
			}
		}
		if sep < 0 || sep+1 >= len(fields) || len(fields) < 5 {
			continue
		}
		if fsType := fields[sep+1]; fsType == "cgroup" || fsType == "cgroup2" {
			dirs = append(dirs, unescapeMountPath(fields[4]))
		}
	}
	sort.Strings(dirs)
	return dirs, scanner.Err()
}

// pidsHierarchy is the hierarchy that tracks the cluster's processes: the v1 pids controller's, or
// the unified one when the machine has only cgroup v2.
func pidsHierarchy(hierarchies []string) (string, error) {
	for _, h := range hierarchies {
		if filepath.Base(h) == "pids" {
			return h, nil
		}
	}
	for _, h := range hierarchies {
		if _, err := os.Stat(filepath.Join(h, "cgroup.controllers")); err == nil {
			return h, nil
		}
	}
	return "", errors.New("no cgroup hierarchy to track processes in (neither a v1 pids controller nor cgroup v2 is mounted)")
}

// createCgroups makes /<name> and /<name>/node in every hierarchy (kubelet checks that its
// cgroupRoot exists in each). A new v1 cpuset cgroup has no CPUs or memory nodes until given its
// parent's.
func createCgroups(name string) error {
	hierarchies, err := cgroupHierarchies()
	if err != nil {
		return err
	}
	for _, h := range hierarchies {
		for _, dir := range []string{filepath.Join(h, name), filepath.Join(h, name, "node")} {
			if err := os.Mkdir(dir, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
				return fmt.Errorf("creating cgroup %s: %w", dir, err)
			}
			for _, file := range []string{"cpuset.cpus", "cpuset.mems"} {
				parent, err := os.ReadFile(filepath.Join(filepath.Dir(dir), file))
				if err != nil {
					continue // not a cpuset hierarchy
				}
				if err := os.WriteFile(filepath.Join(dir, file), parent, 0o644); err != nil {
					return fmt.Errorf("setting %s of cgroup %s: %w", file, dir, err)
				}
			}
		}
	}
	return nil
}

// cgroupProcesses lists the processes in the subtree <name>/sub of the pids hierarchy ("" for the
// whole of <name>).
func cgroupProcesses(name, sub string) ([]int, error) {
	hierarchies, err := cgroupHierarchies()
	if err != nil {
		return nil, err
	}
	h, err := pidsHierarchy(hierarchies)
	if err != nil {
		return nil, err
	}
	root := filepath.Join(h, name, sub)
	var pids []int
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			return err
		}
		if d.IsDir() || d.Name() != "cgroup.procs" {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			return err
		}
		for _, field := range strings.Fields(string(data)) {
			if pid, err := strconv.Atoi(field); err == nil {
				pids = append(pids, pid)
			}
		}
		return nil
	})
	return pids, err
}

// removeCgroups removes /<name> and everything below it in every hierarchy, deepest first. The
// processes must be gone.
func removeCgroups(name string) error {
	hierarchies, err := cgroupHierarchies()
	if err != nil {
		return err
	}
	var errs []error
	for _, h := range hierarchies {
		root := filepath.Join(h, name)
		var dirs []string
		_ = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err == nil && d.IsDir() {
				dirs = append(dirs, path)
			}
			return nil
		})
		// Deepest first: a cgroup with children cannot be removed.
		sort.Slice(dirs, func(i, j int) bool { return len(dirs[i]) > len(dirs[j]) })
		for _, dir := range dirs {
			if err := os.Remove(dir); err != nil && !errors.Is(err, fs.ErrNotExist) {
				errs = append(errs, fmt.Errorf("removing cgroup %s: %w", dir, err))
			}
		}
	}
	return errors.Join(errs...)
}
