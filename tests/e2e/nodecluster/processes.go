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
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// record is what a running cluster keeps in <state>/state.json: enough for another process (make
// cluster-down, a test's cleanup after a crash) to find and stop everything it started.
type record struct {
	ClusterName string `json:"clusterName"`
	Slot        slot   `json:"slot"`
	NodeBinDir  string `json:"nodeBinDir"`
	// Owner is the process the cluster belongs to (Options.Owned), nil when it outlives its starter.
	Owner *process `json:"owner,omitempty"`
	// Nodes is how many nodes the cluster has (0, in a record of a one-node cluster of before: 1).
	Nodes int `json:"nodes,omitempty"`
	// Stopped names the nodes StopNode stopped: their daemons are not in Processes.
	Stopped   []string  `json:"stopped,omitempty"`
	Processes []process `json:"processes"`
}

// nodeCount is how many nodes the recorded cluster has.
func (r *record) nodeCount() int {
	if r.Nodes < 1 {
		return 1
	}
	return r.Nodes
}

// process is one daemon the cluster started: its PID and the kernel's start time of that PID, so
// that a PID reused by another process after the daemon died is never signalled.
type process struct {
	Name      string `json:"name"`
	PID       int    `json:"pid"`
	StartTime uint64 `json:"startTime"`
}

func readRecord(p paths) (*record, error) {
	data, err := os.ReadFile(p.state())
	if err != nil {
		return nil, err
	}
	var r record
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("reading %s: %w", p.state(), err)
	}
	return &r, nil
}

func writeRecord(p paths, r *record) error {
	data, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	tmp := p.state() + ".tmp"
	if err := os.WriteFile(tmp, append(data, '\n'), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, p.state())
}

// startTime is field 22 of /proc/PID/stat; ok is false when the process is gone or a zombie.
func startTime(pid int) (uint64, bool) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, false
	}
	// The command name (field 2) is in parentheses and may hold spaces: count from the last ')'.
	s := string(data)
	fields := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	if len(fields) < 20 || fields[0] == "Z" {
		return 0, false
	}
	t, err := strconv.ParseUint(fields[19], 10, 64)
	return t, err == nil
}

func (p process) alive() bool {
	t, ok := startTime(p.PID)
	return ok && t == p.StartTime
}

// nodeEnv is the environment of the node's daemons: a PATH with the system directories (kube-proxy
// runs iptables and conntrack, containerd runs runc), nothing of the caller's.
var nodeEnv = []string{"PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", "HOME=/root"}

// startDaemon starts binary in the node's namespaces and the cluster's cgroup, in a session of its
// own (a Ctrl-C in the terminal that ran make cluster does not reach it), writing its output to
// <state>/logs/<name>.log (see nodeProcess).
func startDaemon(n nodeLayout, name, binary string, args ...string) (process, error) {
	p := n.p
	if err := os.MkdirAll(p.logs(), 0o755); err != nil {
		return process{}, err
	}
	log, err := os.OpenFile(filepath.Join(p.logs(), name+".log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return process{}, err
	}
	defer func() { _ = log.Close() }() // the started process writes through its own copy
	cmd, err := nodeProcess(n, binary, args...)
	if err != nil {
		return process{}, err
	}
	cmd.Stdout, cmd.Stderr = log, log
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		return process{}, fmt.Errorf("starting %s: %w", name, err)
	}
	// Reap it when it exits while this process lives (a test binary); make cluster exits first and
	// leaves the daemon to init.
	go func() { _ = cmd.Wait() }()
	t, ok := startTime(cmd.Process.Pid)
	if !ok {
		return process{}, fmt.Errorf("%s exited at once; see %s", name, filepath.Join(p.logs(), name+".log"))
	}
	return process{Name: name, PID: cmd.Process.Pid, StartTime: t}, nil
}

// nodeProcess is a command that runs binary in the node's namespaces and cgroup.
// The shell that starts it joins the cgroup and then becomes nsenter, which becomes binary: one
// PID throughout, and no moment outside the cgroup, so Down finds it whatever happens to its
// parent.
func nodeProcess(n nodeLayout, binary string, args ...string) (*exec.Cmd, error) {
	hierarchies, err := cgroupHierarchies()
	if err != nil {
		return nil, err
	}
	h, err := pidsHierarchy(hierarchies)
	if err != nil {
		return nil, err
	}
	procs := filepath.Join(h, n.cgroup(), "node", "cgroup.procs")
	argv := append([]string{"-c", `echo $$ > "$0" && exec "$@"`, procs,
		"nsenter", "--mount=" + n.p.mountNS(), "--net=" + n.netnsPath(), "--", binary}, args...)
	cmd := exec.Command("/bin/sh", argv...)
	cmd.Env = append([]string(nil), nodeEnv...)
	return cmd, nil
}

// stop sends SIGTERM, waits up to grace for the process to go, then kills it.
func (p process) stop(grace time.Duration) error {
	if !p.alive() {
		return nil
	}
	_ = syscall.Kill(p.PID, syscall.SIGTERM)
	deadline := time.Now().Add(grace)
	for time.Now().Before(deadline) {
		if !p.alive() {
			return nil
		}
		time.Sleep(50 * time.Millisecond)
	}
	if p.alive() {
		_ = syscall.Kill(p.PID, syscall.SIGKILL)
	}
	return waitGone([]int{p.PID}, 10*time.Second)
}

// killAll kills the processes (SIGKILL) and waits for them to go.
func killAll(pids []int) error {
	for _, pid := range pids {
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
	return waitGone(pids, 10*time.Second)
}

func waitGone(pids []int, limit time.Duration) error {
	deadline := time.Now().Add(limit)
	for {
		var left []string
		for _, pid := range pids {
			if _, ok := startTime(pid); ok {
				left = append(left, strconv.Itoa(pid))
			}
		}
		if len(left) == 0 {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("processes %s still running after SIGKILL", strings.Join(left, ", "))
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// tail is the end of a daemon's log, for an error that says why it failed.
func tail(p paths, name string) string {
	data, err := os.ReadFile(filepath.Join(p.logs(), name+".log"))
	if err != nil {
		return ""
	}
	lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	if len(lines) > 15 {
		lines = lines[len(lines)-15:]
	}
	return strings.Join(lines, "\n")
}

var errNotRunning = errors.New("no cluster is running here")
