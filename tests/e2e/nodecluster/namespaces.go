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
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
)

// The node is a network namespace and a mount namespace of its own:
//   - the network namespace holds the node's addresses, the pods' bridge and every iptables rule
//     and network sysctl kube-proxy, the CNI plugins and kubelet set; the host and the other nodes
//     reach the node's addresses through the cluster's switch and nothing else (no default route: a
//     pod cannot reach past the machine);
//   - the mount namespace gives the node a /run, /var/lib/cni and /var/log/containers of its own
//     (containerd's shim sockets and runc state, CNI's address leases, iptables' lock, the pod
//     network namespaces' files), shows kubelet the kernel tunables it wants instead of letting it
//     change the machine's, and holds kubelet's volume mounts, so that all of it disappears with
//     the namespace when the node stops.
// Every daemon runs in both (nsenter), and so does NodeCommand.

// run runs a command and returns its error with what it printed.
func run(name string, args ...string) error {
	out, err := exec.Command(name, args...).CombinedOutput()
	if err != nil {
		return fmt.Errorf("%s %s: %w: %s", name, strings.Join(args, " "), err, bytes.TrimSpace(out))
	}
	return nil
}

// allocateSlot creates the network namespace of the first free slot and returns the slot: `ip netns
// add` fails when the name is taken, so two clusters starting at once never get the same one. A
// slot whose other namespaces (a second node's, the switch's) are still there is not free either.
func allocateSlot() (slot, error) {
	for s := slot(1); s <= maxSlots; s++ {
		if _, err := os.Stat(s.netnsPath()); err == nil {
			continue
		}
		if left, _ := filepath.Glob(s.netnsPath() + "-*"); len(left) > 0 {
			continue
		}
		if err := run("ip", "netns", "add", s.netnsName()); err == nil {
			return s, nil
		}
	}
	return 0, fmt.Errorf("no free network namespace kops-node-1..%d: stop clusters with make cluster-down or remove stale ones with ip netns del", maxSlots)
}

// setupNetwork makes the switch (a namespace holding a bridge), plugs the host's veth and every
// node's eth0 into it, gives each node its addresses, a route for the service range (so that a
// process on the node, not only a pod, reaches a ClusterIP: kube-proxy's rules rewrite the
// destination after the route is chosen, and the source address stays the node's) and routes to
// the other nodes' pod ranges. The first node's namespace exists already (allocateSlot).
//
// The bridge is in a namespace of its own, not on the host: the host has br_netfilter loaded, and
// a bridge there would send the nodes' traffic through the host's iptables.
func setupNetwork(s slot, nodes []nodeLayout) error {
	sw := func(args ...string) error { return run("ip", append([]string{"-n", s.switchNetns()}, args...)...) }
	steps := []func() error{
		func() error { return run("ip", "netns", "add", s.switchNetns()) },
		func() error { return sw("link", "add", "br0", "type", "bridge", "mcast_snooping", "0") },
		func() error { return sw("link", "set", "br0", "up") },
		func() error {
			return run("ip", "link", "add", s.hostVeth(), "type", "veth", "peer", "name", "uplink", "netns", s.switchNetns())
		},
		func() error { return sw("link", "set", "uplink", "master", "br0", "up") },
		func() error { return run("ip", "addr", "add", s.hostIP()+"/24", "dev", s.hostVeth()) },
		func() error { return run("ip", "link", "set", s.hostVeth(), "up") },
	}
	for _, n := range nodes {
		steps = append(steps, nodeNetworkSteps(n, nodes)...)
	}
	for _, step := range steps {
		if err := step(); err != nil {
			return err
		}
	}
	return nil
}

func nodeNetworkSteps(n nodeLayout, nodes []nodeLayout) []func() error {
	in := func(args ...string) error { return run("ip", append([]string{"-n", n.netnsName()}, args...)...) }
	steps := []func() error{
		func() error {
			if n.index == 1 {
				return nil
			}
			return run("ip", "netns", "add", n.netnsName())
		},
		func() error {
			return run("ip", "-n", n.s.switchNetns(), "link", "add", n.switchPort(), "type", "veth", "peer", "name", "eth0", "netns", n.netnsName())
		},
		func() error {
			return run("ip", "-n", n.s.switchNetns(), "link", "set", n.switchPort(), "master", "br0", "up")
		},
		func() error { return in("link", "set", "lo", "up") },
		func() error { return in("addr", "add", n.ip()+"/24", "dev", "eth0") },
		// nodad: the address is usable at once, not after duplicate address detection.
		func() error { return in("-6", "addr", "add", n.ipv6()+"/64", "dev", "eth0", "nodad") },
		func() error { return in("link", "set", "eth0", "up") },
		func() error { return in("route", "add", ServiceCIDR, "dev", "lo", "src", n.ip()) },
	}
	for _, other := range nodes {
		if other.index == n.index {
			continue
		}
		steps = append(steps,
			func() error { return in("route", "add", other.podCIDR(), "via", other.ip()) },
			func() error { return in("-6", "route", "add", other.podCIDRv6(), "via", other.ipv6()) })
	}
	return steps
}

// setNodeLink takes a node's link to the switch down or up: down, nothing reaches the node and
// nothing leaves it, as when its machine dies.
func setNodeLink(n nodeLayout, up bool) error {
	state := "down"
	if up {
		state = "up"
	}
	return run("ip", "-n", n.s.switchNetns(), "link", "set", n.switchPort(), state)
}

// teardownNetwork removes the host's veth and every namespace of the slot: the nodes', the
// switch's (the pod network namespaces went with the nodes' mount namespaces).
func teardownNetwork(s slot) error {
	var errs []error
	if _, err := os.Stat("/sys/class/net/" + s.hostVeth()); err == nil {
		if err := run("ip", "link", "del", s.hostVeth()); err != nil {
			errs = append(errs, err)
		}
	}
	others, err := filepath.Glob(s.netnsPath() + "-*")
	if err != nil {
		return err
	}
	for _, path := range append([]string{s.netnsPath()}, others...) {
		if _, err := os.Stat(path); err == nil {
			if err := run("ip", "netns", "del", filepath.Base(path)); err != nil {
				errs = append(errs, err)
			}
		}
	}
	return errors.Join(errs...)
}

// privateDirs are the host's default places the node's daemons write to without a flag to move
// them; each gets a tmpfs of its own in the node's mount namespace.
var privateDirs = []string{"/run", "/var/lib/cni", "/var/log/containers"}

// setupMountNamespace creates the node's mount namespace, kept by a bind mount on p.mountNS(),
// with private mounts (nothing propagates to the host).
func setupMountNamespace(p paths) error {
	if err := os.MkdirAll(filepath.Dir(p.mountNS()), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(p.mountNS(), nil, 0o644); err != nil {
		return err
	}
	if err := run("unshare", "--mount="+p.mountNS(), "--propagation", "private", "true"); err != nil {
		return fmt.Errorf("creating the node's mount namespace: %w", err)
	}
	for _, dir := range privateDirs {
		// The mount point must exist on the host; an empty directory is all that is left there.
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
		if err := run("nsenter", "--mount="+p.mountNS(), "--", "mount", "-t", "tmpfs", "-o", "mode=0755", "kops-node", dir); err != nil {
			return err
		}
	}
	// The host's /run/netns is hidden now; containerd puts the pods' network namespaces there.
	names := make([]string, 0, len(kubeletTunables))
	for name := range kubeletTunables {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		src := filepath.Join(p.sysctls(), filepath.Base(name))
		if err := run("nsenter", "--mount="+p.mountNS(), "--", "mount", "--bind", src, filepath.Join("/proc/sys", name)); err != nil {
			return err
		}
	}
	return nil
}

// teardownMountNamespace drops the bind mount that keeps the namespace; with no process left in
// it, the kernel removes it and every mount in it.
func teardownMountNamespace(p paths) error {
	if !isMountPoint(p.mountNS()) {
		return nil
	}
	return run("umount", p.mountNS())
}

// isMountPoint reports whether path is the target of a mount in this mount namespace.
func isMountPoint(path string) bool {
	data, err := os.ReadFile("/proc/self/mountinfo")
	if err != nil {
		return false
	}
	for _, line := range strings.Split(string(data), "\n") {
		fields := strings.Fields(line)
		if len(fields) > 4 && unescapeMountPath(fields[4]) == path {
			return true
		}
	}
	return false
}

// unescapeMountPath undoes mountinfo's octal escapes of space, tab, newline and backslash.
func unescapeMountPath(s string) string {
	r := strings.NewReplacer(`\040`, " ", `\011`, "\t", `\012`, "\n", `\134`, `\`)
	return r.Replace(s)
}
