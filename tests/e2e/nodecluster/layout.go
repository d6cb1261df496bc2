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
	"fmt"
	"path/filepath"
)

// Versions and names the cluster is built from. The versions must match hack/build-test-node.sh,
// which builds the binaries into _output/testbin/NodeBinaryDirName.
const (
	KubernetesVersion = "v1.35.4"
	CoreDNSVersion    = "v1.14.2"
	IMDSMockVersion   = "v1.13.0"
	NodeBinaryDirName = "node-k8s-1.35.4-coredns-1.14.2-imds-1.13.0"
	// APIServerBinaryDirName holds kube-apiserver and etcd (hack/build-test-apiserver.sh).
	APIServerBinaryDirName = "k8s-1.35.4-etcd-3.6.5"
	// MetricsServerBinaryDirName holds metrics-server (hack/build-test-node.sh), in a folder of
	// its own so that its version never renames NodeBinaryDirName.
	MetricsServerVersion       = "v0.8.0"
	MetricsServerBinaryDirName = "metrics-server-0.8.0"

	// DefaultClusterName names the kubeconfig's context, cluster and user: the README's cluster.
	DefaultClusterName = "addons.k8s.local"
	// NodeName is the first node's name: the one that also runs the control plane.
	NodeName = "node-1"

	// ServiceCIDR is kops's default service range; KubeDNSServerIP, kops's default
	// spec.kubeDNS.serverIP, is in it, and so the kube-dns Service kops renders gets its address.
	ServiceCIDR     = "100.64.0.0/13"
	KubeDNSServerIP = "100.64.0.10"
	// ClusterCIDR is kops's default pod range; the first node's pods get PodCIDR, its first /24,
	// the next node's the next /24. Pods are dual-stack: each also gets an address of
	// ClusterCIDRv6, the first node's from PodCIDRv6, its first /64 (a unique local range: kops
	// takes IPv6 pod ranges from the cloud, which this machine has none of).
	ClusterCIDR   = "100.96.0.0/11"
	PodCIDR       = "100.96.0.0/24"
	ClusterCIDRv6 = "fd00:100:96::/48"
	PodCIDRv6     = "fd00:100:96::/64"
	ClusterDomain = "cluster.local"

	// Images made by hack/tools/images/nodeimages. Nothing is pulled: kubelet finds them in
	// containerd (imagePullPolicy IfNotPresent, kops's default for tagged images).
	PauseImage      = "kops.local/node/pause:v1"
	TestClientImage = "kops.local/node/testclient:v1"
	CoreDNSImage    = "registry.k8s.io/coredns/coredns:" + CoreDNSVersion
	// MetricsServerImage is the image kops renders for spec.metricsServer (its default).
	MetricsServerImage = "registry.k8s.io/metrics-server/metrics-server:" + MetricsServerVersion

	// apiServerPort is the API server's port on the node's address.
	apiServerPort = 6443
	// maxSlots bounds how many clusters can run on one machine at once.
	maxSlots = 200
)

// slot is a cluster's place on the machine: its network namespace, veth and addresses, and
// cgroup, all derived from one small number so that clusters started side by side (two test
// packages at once, make cluster while tests run) never share anything.
type slot int

func (s slot) netnsName() string   { return fmt.Sprintf("kops-node-%d", s) }
func (s slot) switchNetns() string { return s.netnsName() + "-net" }
func (s slot) netnsPath() string   { return filepath.Join("/run/netns", s.netnsName()) }
func (s slot) hostVeth() string    { return fmt.Sprintf("kopsnode%d", s) }
func (s slot) cgroupName() string  { return fmt.Sprintf("kops-node-%d", s) }

// The host's end of the veth, and the nodes (nodeLayout.ip), get addresses in 198.18.0.0/15, the
// range set aside for testing network devices (RFC 2544): traffic to them never leaves the machine.
func (s slot) hostIP() string { return fmt.Sprintf("198.18.%d.1", s) }

// paths are the files of a cluster under its state directory, or of one of its nodes under the
// node's folder (logDir then is the cluster's logs/).
type paths struct{ dir, logDir string }

func (p paths) state() string      { return filepath.Join(p.dir, "state.json") }
func (p paths) kubeconfig() string { return filepath.Join(p.dir, "kubeconfig") }
func (p paths) pki() string        { return filepath.Join(p.dir, "pki") }
func (p paths) config() string     { return filepath.Join(p.dir, "config") }
func (p paths) logs() string {
	if p.logDir != "" {
		return p.logDir
	}
	return filepath.Join(p.dir, "logs")
}
func (p paths) mountNS() string    { return filepath.Join(p.dir, "ns", "mnt") }
func (p paths) etcdData() string   { return filepath.Join(p.dir, "data", "etcd") }
func (p paths) containerd() string { return filepath.Join(p.dir, "data", "containerd") }
func (p paths) kubelet() string    { return filepath.Join(p.dir, "data", "kubelet") }
func (p paths) podLogs() string    { return filepath.Join(p.dir, "data", "pod-logs") }
func (p paths) cniConf() string    { return filepath.Join(p.dir, "config", "cni") }
func (p paths) sysctls() string    { return filepath.Join(p.dir, "config", "sysctl") }
func (p paths) resolvConf() string { return filepath.Join(p.dir, "config", "resolv.conf") }

// containerdSocket is containerd's socket. A unix socket path has at most 107 bytes; a state
// directory deep enough to pass that is refused when the cluster starts.
func (p paths) containerdSocket() string { return filepath.Join(p.dir, "containerd.sock") }
