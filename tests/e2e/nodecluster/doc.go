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

// Package nodecluster runs a real Kubernetes cluster of one or more nodes on this machine, offline,
// for the node tests (tests/e2e/node, two nodes) and `make cluster` (one, or NODES): etcd,
// kube-apiserver, kube-controller-manager and kube-scheduler on the first node, containerd (with
// runc and the bridge CNI plugins), kubelet and kube-proxy on every node, each node in a network
// namespace and a mount namespace of its own, so that nothing touches the host's iptables,
// sysctls, /run or /var/lib. The nodes share a link (a bridge in a namespace of the cluster's),
// each has its pod ranges (IPv4 and IPv6: pods are dual-stack; services stay IPv4, as kops's
// default) and routes to the others' (see nodes.go). The binaries come from hack/build-test-apiserver.sh and
// hack/build-test-node.sh (_output/testbin), the packages from hack/install-test-packages.sh; the
// images (pause, CoreDNS, metrics-server, the test client, the operators from `make images`) are
// built locally and imported into the node's containerd, so nothing is ever pulled. The API server
// serves aggregated APIs (frontproxy.go), so metrics-server's metrics.k8s.io answers through it.
//
// A test package starts one cluster for all its tests:
//
//	var cluster *nodecluster.Cluster
//	func TestMain(m *testing.M) { nodecluster.Main(m, func(c *nodecluster.Cluster) { cluster = c }) }
//
// Main skips the package with one line where the machine cannot run containers (not root, no
// cgroups, no namespaces), and fails it for anything that can be fixed (a package or binary
// missing). A test that needs a fresh cluster, or leaves its cluster changed, starts one of its
// own next to it with Start(t) (stopped when the test ends). Then, in a test:
//
//   - cluster.Kubeconfig is an admin kubeconfig whose context is cluster.Name, the kops cluster's
//     name (DefaultClusterName); give it to kops, channels or kubectl as KUBECONFIG.
//     cluster.Clientset and cluster.Config act as that admin.
//   - cluster.RunPod(ctx, nodecluster.TestClientPod(ns, name)) starts a pod of the test client
//     image (images/testclient: resolve, dns, http, dial; JSON lines out) and waits until it is
//     ready, failing early when it cannot start; cluster.Exec(ctx, ns, name, "client",
//     "/testclient", "resolve", NAME) runs a command in it as `kubectl exec` does;
//     cluster.DeletePod removes it.
//   - cluster.NodeCommand(ctx, "iptables-save") is an *exec.Cmd that runs on the first node: in its
//     network and mount namespaces (its addresses, routes, iptables rules). cluster.NodeIP is that
//     node's address, where a pod of any node reaches a listener started that way; cluster.HostIP
//     is the host's address on the nodes' link.
//   - cluster.Nodes lists the nodes (Name, IP, IPv6, PodCIDRs, NetNS, MountNS);
//     cluster.Nodes[1].Command and .Start do what NodeCommand and StartOnNode do, on that node.
//     nodecluster.OnNode(pod, "node-2") pins a pod to a node before RunPod.
//   - cluster.StopNode(ctx, "node-2") makes a node a machine that died (link down, daemons and
//     containers killed); cluster.StartNode brings it back as after a reboot. The node controller
//     notices within TestNodeMonitorGracePeriod in the tests' clusters.
//   - cluster.StartOnNode("imds", filepath.Join(cluster.NodeBinDir, "ec2-metadata-mock"), ...)
//     starts a long-running process on the node (the AWS metadata mock, a DNS stub), logging to
//     cluster.LogFile("imds"); Down kills it if the test does not.
//   - cluster.ImportImage adds an image tarball to every node; cluster.LogFile("kubelet") is a
//     daemon's log (another node's: Nodes[i].LogFile("kubelet")); cluster.ResidentBytes sums the memory of all the cluster's processes.
//
// The images' names are PauseImage, TestClientImage, and CoreDNSImage and MetricsServerImage (the
// ones kops renders), and
// the service range, kube-dns address and cluster domain are kops's defaults (ServiceCIDR,
// KubeDNSServerIP, ClusterDomain), so manifests rendered by `kops update cluster` run unchanged.
//
// Outside tests, Up, Load and Down start, find and stop a cluster in a state folder (what
// cmd/node-cluster and hack/cluster.sh do). Every process a cluster starts is recorded in
// <state>/state.json with its PID and start time and joins the cluster's cgroup; Down stops them by
// PID, kills whatever is left in the cgroup (containerd's shims, the containers), and removes the
// namespaces, the veth and the cgroups. Several clusters can run side by side: each takes a free
// slot, which names its network namespaces (kops-node-N for the first node, kops-node-N-2 for the
// second, kops-node-N-net for the link), veth and 198.18.N.0/24 addresses (.1 the host, .2 the
// first node, .3 the second; fd00:198:18:N::/64 likewise).
//
// The workarounds this machine kind needs (cgroup v1, no CAP_SYS_RESOURCE, no dummy links) are
// in the daemons' configuration, with their reasons: configs.go.
package nodecluster
