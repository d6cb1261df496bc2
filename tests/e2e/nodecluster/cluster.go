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
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
)

// Options say where a cluster keeps its files and what it runs.
type Options struct {
	// StateDir holds everything of the cluster: its record, keys, configuration, data and logs.
	// Required; one cluster per folder.
	StateDir string
	// ClusterName names the kubeconfig's context, cluster and user (DefaultClusterName when empty).
	ClusterName string
	// NodeBinDir holds kubelet, kube-controller-manager, kube-scheduler, kube-proxy, coredns and
	// ec2-metadata-mock (hack/build-test-node.sh); APIServerBinDir holds kube-apiserver and etcd
	// (hack/build-test-apiserver.sh).
	NodeBinDir, APIServerBinDir string
	// Images are image tarballs imported into the node's containerd before kubelet starts; the
	// sandbox image (PauseImage) must be one of them.
	Images []string
	// Progress receives a line per step with its time; nil for none.
	Progress io.Writer
	// Nodes is how many nodes the cluster has (1 when 0): node-1 runs the control plane and
	// workloads, node-2 and on only workloads.
	Nodes int
	// NodeMonitorGracePeriod is how long a node may go silent before the node controller marks it
	// and its pods not ready (kube-controller-manager's --node-monitor-grace-period); 0 keeps
	// Kubernetes's default (50 s in 1.35, which kops does not change). Set, kubelet renews its
	// lease four times within it.
	NodeMonitorGracePeriod time.Duration
	// Owned ties the cluster to the calling process (a test binary): when that process dies without
	// stopping it (go test -timeout kills it outright), StopOrphans stops the cluster later. A
	// cluster of make cluster is not owned: it outlives the command that started it.
	Owned bool
}

// Cluster is a running cluster. Its fields NodeIP, NetNS and MountNS, and NodeCommand,
// StartOnNode and LogFile, are the first node's (node-1, where the control plane runs); Nodes
// lists every node.
type Cluster struct {
	// Name is the kops cluster's name, the kubeconfig's context.
	Name string
	// StateDir is the cluster's folder; Kubeconfig the admin's kubeconfig in it.
	StateDir, Kubeconfig string
	// Config is the admin's (a member of system:masters); copy it before changing it.
	Config *rest.Config
	// Clientset acts as the admin.
	Clientset kubernetes.Interface
	// NodeIP is the first node's address (the API server's, its kubelet's, its kube-proxy's);
	// HostIP the host's address on the link the nodes share, from which they are reached.
	NodeIP, HostIP string
	// Nodes are the cluster's nodes, the first first.
	Nodes []Node
	// NetNS and MountNS are the node's namespace files, for nsenter --net= and --mount=.
	NetNS, MountNS string
	// CgroupName is the cluster's cgroup (under every hierarchy's root) and kubelet's cgroupRoot.
	CgroupName string
	// NodeBinDir holds the node's binaries (Options.NodeBinDir), the AWS metadata mock
	// (ec2-metadata-mock) and CoreDNS among them, for StartOnNode.
	NodeBinDir string

	paths paths
	slot  slot
	nodes []nodeLayout
}

// UnsupportedError says the machine cannot run a node at all (not root, no cgroups, no
// namespaces): a test package skips on it, where any other error is a failure.
type UnsupportedError struct{ Reason string }

func (e *UnsupportedError) Error() string { return "this machine cannot run containers: " + e.Reason }

// Preflight reports what the machine lacks for a node: an *UnsupportedError when it cannot run one
// at all, another error when something can be installed or built (packages, binaries).
func Preflight(opts Options) error {
	if os.Geteuid() != 0 {
		return &UnsupportedError{Reason: fmt.Sprintf("not root (uid %d); a node needs network and mount namespaces, cgroups and iptables", os.Geteuid())}
	}
	hierarchies, err := cgroupHierarchies()
	if err != nil || len(hierarchies) == 0 {
		return &UnsupportedError{Reason: "no cgroup hierarchy is mounted under /sys/fs/cgroup"}
	}
	if _, err := pidsHierarchy(hierarchies); err != nil {
		return &UnsupportedError{Reason: err.Error()}
	}
	if _, err := os.Stat("/proc/self/ns/net"); err != nil {
		return &UnsupportedError{Reason: "no network namespaces (/proc/self/ns/net)"}
	}
	last := layoutNodes(paths{dir: opts.StateDir}, 0, opts.nodeCount())
	if n := len(last[len(last)-1].p.containerdSocket()); n > 107 {
		return fmt.Errorf("state folder %s is too deep: containerd's socket path would be %d bytes, a unix socket takes 107 at most", opts.StateDir, n)
	}
	var missing []string
	for _, cmd := range []string{"containerd", "runc", "ctr", "iptables", "ip", "nsenter", "unshare", "mount", "umount", "conntrack"} {
		if _, err := exec.LookPath(cmd); err != nil {
			if _, err := os.Stat(filepath.Join("/usr/sbin", cmd)); err != nil {
				missing = append(missing, cmd)
			}
		}
	}
	for _, plugin := range []string{"bridge", "host-local", "loopback", "portmap"} {
		if _, err := os.Stat(filepath.Join("/usr/lib/cni", plugin)); err != nil {
			missing = append(missing, "/usr/lib/cni/"+plugin)
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("missing on this machine: %s; run hack/install-test-packages.sh (make test-packages) as root", strings.Join(missing, ", "))
	}
	// Root inside an unprivileged container is root without CAP_SYS_ADMIN: no namespace, no node.
	if out, err := exec.Command("unshare", "--net", "--mount", "true").CombinedOutput(); err != nil {
		return &UnsupportedError{Reason: fmt.Sprintf("cannot create network and mount namespaces: %v: %s", err, strings.TrimSpace(string(out)))}
	}
	for dir, names := range map[string][]string{
		opts.APIServerBinDir: {"kube-apiserver", "etcd"},
		opts.NodeBinDir:      {"kubelet", "kube-controller-manager", "kube-scheduler", "kube-proxy", "coredns", "ec2-metadata-mock"},
	} {
		for _, name := range names {
			info, err := os.Stat(filepath.Join(dir, name))
			if err != nil || info.Mode()&0o111 == 0 {
				return fmt.Errorf("%s not found in %s: run hack/build-test-node.sh (make test-node)", name, dir)
			}
		}
	}
	return nil
}

// Up starts a cluster in opts.StateDir and waits until its node is Ready and the default service
// account exists (so pods can be created). When it fails it stops whatever it started.
func Up(ctx context.Context, opts Options) (c *Cluster, err error) {
	if opts.ClusterName == "" {
		opts.ClusterName = DefaultClusterName
	}
	if err := os.MkdirAll(opts.StateDir, 0o755); err != nil {
		return nil, err
	}
	if opts.StateDir, err = canonicalDir(opts.StateDir); err != nil {
		return nil, err
	}
	if err := Preflight(opts); err != nil {
		return nil, err
	}
	p := paths{dir: opts.StateDir}
	if r, err := readRecord(p); err == nil {
		for _, proc := range r.Processes {
			if proc.alive() {
				return nil, fmt.Errorf("a cluster is already running in %s (%s, PID %d): stop it first", opts.StateDir, proc.Name, proc.PID)
			}
		}
		// A cluster that died without its teardown: clean up what is left of it first.
		if err := Down(opts.StateDir); err != nil {
			return nil, fmt.Errorf("cleaning up the dead cluster in %s: %w", opts.StateDir, err)
		}
	}
	progress := newProgress(opts.Progress)

	s, err := allocateSlot()
	if err != nil {
		return nil, err
	}
	rec := &record{ClusterName: opts.ClusterName, Slot: s, NodeBinDir: opts.NodeBinDir, Nodes: opts.nodeCount()}
	if opts.Owned {
		t, ok := startTime(os.Getpid())
		if !ok {
			return nil, errors.New("reading this process's start time from /proc")
		}
		rec.Owner = &process{Name: "owner", PID: os.Getpid(), StartTime: t}
	}
	if err := writeRecord(p, rec); err != nil {
		_ = teardownNetwork(s)
		return nil, err
	}
	defer func() {
		if err != nil {
			if downErr := Down(opts.StateDir); downErr != nil {
				err = fmt.Errorf("%w (and stopping what had started: %v)", err, downErr)
			}
		}
	}()
	c = newCluster(opts.ClusterName, p, rec)

	nodes := c.nodes
	if err := setupNetwork(s, nodes); err != nil {
		return nil, err
	}
	for _, n := range nodes {
		if err := createCgroups(n.cgroup()); err != nil {
			return nil, err
		}
	}
	certs, err := writePKI(p, nodes, opts.ClusterName)
	if err != nil {
		return nil, fmt.Errorf("writing the cluster's keys: %w", err)
	}
	leaseSeconds := 40 // kubelet's default
	if opts.NodeMonitorGracePeriod > 0 {
		leaseSeconds = max(1, int(opts.NodeMonitorGracePeriod.Seconds()))
	}
	for _, n := range nodes {
		if err := writeNodeConfigs(n, p, certs, nodes, leaseSeconds); err != nil {
			return nil, fmt.Errorf("writing the configuration of %s: %w", n.name(), err)
		}
		if err := setupMountNamespace(n.p); err != nil {
			return nil, err
		}
		progress.step("namespaces, cgroup and keys of node %s at %s and %s (netns %s)", n.name(), n.ip(), n.ipv6(), n.netnsName())
	}

	start := func(n nodeLayout, name, binary string, args ...string) error {
		proc, err := startDaemon(n, n.daemon(name), binary, args...)
		if err != nil {
			return err
		}
		rec.Processes = append(rec.Processes, proc)
		return writeRecord(p, rec)
	}
	first := nodes[0]
	if err := start(first, "etcd", filepath.Join(opts.APIServerBinDir, "etcd"), etcdArgs(p)...); err != nil {
		return nil, err
	}
	if err := start(first, "kube-apiserver", filepath.Join(opts.APIServerBinDir, "kube-apiserver"), apiServerArgs(first, certs)...); err != nil {
		return nil, err
	}
	// containerd and the image imports while the API server starts.
	for _, n := range nodes {
		if err := start(n, "containerd", "containerd", "--config", filepath.Join(n.p.config(), "containerd.toml")); err != nil {
			return nil, err
		}
	}
	for _, n := range nodes {
		if err := c.waitContainerd(ctx, rec, n); err != nil {
			return nil, err
		}
	}
	progress.step("containerd %s ready on %d nodes", containerdVersion(), len(nodes))
	for _, image := range opts.Images {
		if err := c.ImportImage(ctx, image); err != nil {
			return nil, err
		}
	}
	progress.step("%d images imported on every node", len(opts.Images))

	if c.Config, err = clientcmd.BuildConfigFromFlags("", p.kubeconfig()); err != nil {
		return nil, err
	}
	if c.Clientset, err = kubernetes.NewForConfig(c.Config); err != nil {
		return nil, err
	}
	if err := c.waitAPIServer(ctx, rec); err != nil {
		return nil, err
	}
	progress.step("kube-apiserver %s ready at https://%s:%d", KubernetesVersion, first.ip(), apiServerPort)

	bin := func(name string) string { return filepath.Join(opts.NodeBinDir, name) }
	if err := start(first, "kube-controller-manager", bin("kube-controller-manager"), controllerManagerArgs(p, certs, opts.NodeMonitorGracePeriod)...); err != nil {
		return nil, err
	}
	if err := start(first, "kube-scheduler", bin("kube-scheduler"), schedulerArgs(p)...); err != nil {
		return nil, err
	}
	for _, n := range nodes {
		for _, d := range nodeDaemons(n, opts.NodeBinDir) {
			if d.name == "containerd" {
				continue // started above, for the imports
			}
			if err := start(n, d.name, d.binary, d.args...); err != nil {
				return nil, err
			}
		}
	}
	for _, n := range nodes {
		if err := c.waitNodeReady(ctx, rec, n); err != nil {
			return nil, err
		}
		progress.step("node %s Ready", n.name())
	}
	return c, nil
}

func (o Options) nodeCount() int {
	if o.Nodes < 1 {
		return 1
	}
	return o.Nodes
}

// newCluster is the Cluster of a record: its nodes as the record says.
func newCluster(name string, p paths, rec *record) *Cluster {
	s := rec.Slot
	nodes := layoutNodes(p, s, rec.nodeCount())
	c := &Cluster{Name: name, StateDir: p.dir, Kubeconfig: p.kubeconfig(), NodeIP: nodes[0].ip(), HostIP: s.hostIP(),
		NetNS: nodes[0].netnsPath(), MountNS: p.mountNS(), CgroupName: s.cgroupName(), NodeBinDir: rec.NodeBinDir,
		paths: p, slot: s, nodes: nodes}
	for _, n := range nodes {
		c.Nodes = append(c.Nodes, n.public())
	}
	return c
}

// Load returns the cluster running in stateDir, as Up returned it.
func Load(stateDir string) (*Cluster, error) {
	stateDir, err := canonicalDir(stateDir)
	if err != nil {
		return nil, err
	}
	p := paths{dir: stateDir}
	rec, err := readRecord(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, errNotRunning
	}
	if err != nil {
		return nil, err
	}
	for _, proc := range rec.Processes {
		if !proc.alive() {
			return nil, fmt.Errorf("%s (PID %d) of the cluster in %s is not running; see %s", proc.Name, proc.PID, stateDir, filepath.Join(p.logs(), proc.Name+".log"))
		}
	}
	if len(rec.Processes) == 0 {
		return nil, errNotRunning
	}
	c := newCluster(rec.ClusterName, p, rec)
	if c.Config, err = clientcmd.BuildConfigFromFlags("", p.kubeconfig()); err != nil {
		return nil, err
	}
	if c.Clientset, err = kubernetes.NewForConfig(c.Config); err != nil {
		return nil, err
	}
	return c, nil
}

// Down stops the cluster recorded in stateDir and removes its namespaces, veth and cgroups; the
// state folder keeps its logs (logs/) and loses everything else. Nothing to stop is no error.
func Down(stateDir string) error {
	stateDir, err := canonicalDir(stateDir)
	if err != nil {
		return err
	}
	p := paths{dir: stateDir}
	rec, err := readRecord(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	s := rec.Slot
	byName := map[string]process{}
	for _, proc := range rec.Processes {
		byName[proc.Name] = proc
	}
	var errs []error
	stop := func(names ...string) {
		for _, name := range names {
			if proc, ok := byName[name]; ok {
				if err := proc.stop(10 * time.Second); err != nil {
					errs = append(errs, fmt.Errorf("stopping %s: %w", name, err))
				}
			}
		}
	}
	// kubelet first, so that it restarts nothing; then the pods' processes; then containerd and the
	// control plane. Whatever is still in the cluster's cgroup after that (containerd's shims, a
	// process a test started on the node) is killed by PID.
	nodes := layoutNodes(p, s, rec.nodeCount())
	for _, n := range nodes {
		stop(n.daemon("kubelet"), n.daemon("kube-proxy"))
	}
	stop("kube-scheduler", "kube-controller-manager")
	for _, n := range nodes {
		if pids, err := cgroupProcesses(n.cgroup(), "kubepods"); err == nil {
			if err := killAll(pids); err != nil {
				errs = append(errs, err)
			}
		}
	}
	for _, n := range nodes {
		stop(n.daemon("containerd"))
	}
	stop("kube-apiserver", "etcd")
	for attempt := 0; attempt < 5; attempt++ {
		pids, err := cgroupProcesses(s.cgroupName(), "")
		if err != nil {
			errs = append(errs, err)
			break
		}
		if len(pids) == 0 {
			break
		}
		if err := killAll(pids); err != nil && attempt == 4 {
			errs = append(errs, err)
		}
	}
	for _, n := range nodes {
		if err := teardownMountNamespace(n.p); err != nil {
			errs = append(errs, err)
		}
	}
	if err := teardownNetwork(s); err != nil {
		errs = append(errs, err)
	}
	// A cgroup whose last process just died can stay busy for a moment.
	var cgErr error
	for attempt := 0; attempt < 20; attempt++ {
		if cgErr = removeCgroups(s.cgroupName()); cgErr == nil {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if cgErr != nil {
		errs = append(errs, cgErr)
	}
	if len(errs) > 0 {
		// Keep the record: another Down can finish the work.
		return errors.Join(errs...)
	}
	entries, err := os.ReadDir(stateDir)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if e.Name() == filepath.Base(p.logs()) || e.Name() == filepath.Base(p.state()) {
			continue
		}
		if err := os.RemoveAll(filepath.Join(stateDir, e.Name())); err != nil {
			errs = append(errs, err)
		}
	}
	if len(errs) == 0 {
		errs = append(errs, os.Remove(p.state()))
	}
	return errors.Join(errs...)
}

// StopOrphans stops the owned clusters (Options.Owned) in the state folders matching pattern (a
// filepath.Glob pattern, such as filepath.Join(os.TempDir(), "kops-node-*")) whose owner is gone,
// and removes those folders; it returns the folders it cleaned. Clusters whose owner still runs
// (another test package's, right now) and clusters nobody owns are left alone.
func StopOrphans(pattern string) ([]string, error) {
	dirs, err := filepath.Glob(pattern)
	if err != nil {
		return nil, err
	}
	var cleaned []string
	var errs []error
	for _, dir := range dirs {
		rec, err := readRecord(paths{dir: dir})
		if err != nil || rec.Owner == nil || rec.Owner.alive() {
			continue
		}
		if err := Down(dir); err != nil {
			errs = append(errs, fmt.Errorf("stopping the orphaned cluster in %s: %w", dir, err))
			continue
		}
		if err := os.RemoveAll(dir); err != nil {
			errs = append(errs, err)
			continue
		}
		cleaned = append(cleaned, dir)
	}
	return cleaned, errors.Join(errs...)
}

// canonicalDir is dir as the kernel names it: absolute, with no symlink (an _output that links
// elsewhere), so that the mount of the node's namespace file is found in /proc/self/mountinfo
// when it is time to unmount it. A folder that does not exist is only made absolute.
func canonicalDir(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	resolved, err := filepath.EvalSymlinks(abs)
	if errors.Is(err, fs.ErrNotExist) {
		return abs, nil
	}
	return resolved, err
}

// Down stops the cluster; see the function Down.
func (c *Cluster) Down() error { return Down(c.StateDir) }

// NodeCommand is a command that runs on the node: in its network and mount namespaces (its
// addresses, routes and iptables rules; its /run, where iptables' lock is), with the daemons'
// PATH. The caller runs it (Run, Output, CombinedOutput); a process meant to keep running (a
// listener, a mock) is started with StartOnNode instead, so that Down stops it too.
func (c *Cluster) NodeCommand(ctx context.Context, name string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, "nsenter", append([]string{"--mount=" + c.MountNS, "--net=" + c.NetNS, "--", name}, args...)...)
	cmd.Env = append([]string(nil), nodeEnv...)
	return cmd
}

// LogFile is the path of a daemon's log (etcd, kube-apiserver, containerd,
// kube-controller-manager, kube-scheduler, kubelet, kube-proxy), the first node's; another
// node's daemons log to Node.LogFile (logs/node-2-kubelet.log).
func (c *Cluster) LogFile(daemon string) string { return filepath.Join(c.paths.logs(), daemon+".log") }

// ImportImage imports an image tarball (docker-archive or OCI) into every running node's
// containerd, where kubelet finds it under the name the tarball gives it: a pod finds it wherever
// it is scheduled.
func (c *Cluster) ImportImage(ctx context.Context, tarball string) error {
	stopped := map[string]bool{}
	if rec, err := readRecord(c.paths); err == nil {
		for _, name := range rec.Stopped {
			stopped[name] = true
		}
	}
	// The nodes import at once: each is a containerd of its own.
	errs := make([]error, len(c.Nodes))
	var wg sync.WaitGroup
	for i, n := range c.Nodes {
		if stopped[n.Name] {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			cmd := n.Command(ctx, "ctr", "--address", n.layout.p.containerdSocket(), "--namespace", "k8s.io", "images", "import", tarball)
			if out, err := cmd.CombinedOutput(); err != nil {
				errs[i] = fmt.Errorf("importing image %s on %s: %w: %s", tarball, n.Name, err, strings.TrimSpace(string(out)))
			}
		}()
	}
	wg.Wait()
	return errors.Join(errs...)
}

// checkAlive fails with the log's end when one of the recorded daemons died.
func (c *Cluster) checkAlive(rec *record) error {
	for _, proc := range rec.Processes {
		if !proc.alive() {
			return fmt.Errorf("%s exited; the end of %s:\n%s", proc.Name, filepath.Join(c.paths.logs(), proc.Name+".log"), tail(c.paths, proc.Name))
		}
	}
	return nil
}

// poll calls check every 200 ms until it returns true, an error, or limit passes; a daemon that
// dies meanwhile fails it at once.
func (c *Cluster) poll(ctx context.Context, rec *record, what string, limit time.Duration, check func(context.Context) (bool, string)) error {
	ctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	last := ""
	for {
		if err := c.checkAlive(rec); err != nil {
			return fmt.Errorf("waiting for %s: %w", what, err)
		}
		ok, detail := check(ctx)
		if ok {
			return nil
		}
		if detail != "" {
			last = detail
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("%s not within %s (last: %s); logs in %s", what, limit, last, c.paths.logs())
		case <-time.After(200 * time.Millisecond):
		}
	}
}

func (c *Cluster) waitContainerd(ctx context.Context, rec *record, n nodeLayout) error {
	return c.poll(ctx, rec, "containerd of "+n.name(), time.Minute, func(ctx context.Context) (bool, string) {
		out, err := n.public().Command(ctx, "ctr", "--address", n.p.containerdSocket(), "version").CombinedOutput()
		return err == nil, strings.TrimSpace(string(out))
	})
}

func containerdVersion() string {
	out, err := exec.Command("containerd", "--version").Output()
	if err != nil {
		return ""
	}
	fields := strings.Fields(string(out))
	if len(fields) >= 3 {
		return fields[2]
	}
	return ""
}

// ResidentBytes is the resident memory (VmRSS) of every process in the cluster's cgroup added up:
// the daemons, containerd's shims and the pods' containers.
func (c *Cluster) ResidentBytes() (int64, error) {
	pids, err := cgroupProcesses(c.CgroupName, "")
	if err != nil {
		return 0, err
	}
	var total int64
	for _, pid := range pids {
		data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
		if err != nil {
			continue // gone since it was listed
		}
		for _, line := range strings.Split(string(data), "\n") {
			if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
				if kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64); err == nil {
					total += kb * 1024
				}
			}
		}
	}
	return total, nil
}

// StartOnNode starts binary on the node (its namespaces, the cluster's cgroup), writing its output
// to LogFile(name): a listener or mock a test needs next to the node, such as the AWS metadata
// mock (filepath.Join(c.NodeBinDir, "ec2-metadata-mock")) or an upstream DNS stub. The caller
// stops it (cmd.Process.Kill, then cmd.Wait); Down kills it too if the test does not get to.
func (c *Cluster) StartOnNode(name, binary string, args ...string) (*exec.Cmd, error) {
	log, err := os.OpenFile(c.LogFile(name), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, err
	}
	defer func() { _ = log.Close() }() // the started process writes through its own copy
	cmd, err := nodeProcess(c.nodes[0], binary, args...)
	if err != nil {
		return nil, err
	}
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting %s on the node: %w", name, err)
	}
	return cmd, nil
}
