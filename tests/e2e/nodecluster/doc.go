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

// Package nodecluster runs a real one-node Kubernetes cluster on this machine, offline, for the node
// tests (tests/e2e/node) and `make cluster`: etcd, kube-apiserver, kube-controller-manager,
// kube-scheduler, containerd (with runc and the bridge CNI plugins), kubelet and kube-proxy, all in a
// network namespace and a mount namespace of the cluster's own, so that nothing touches the host's
// iptables, sysctls, /run or /var/lib. The binaries come from hack/build-test-apiserver.sh and
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
//   - cluster.NodeCommand(ctx, "iptables-save") is an *exec.Cmd that runs on the node: in its
//     network and mount namespaces (its addresses, routes, iptables rules). cluster.NodeIP is the
//     node's address, where a pod reaches a listener started that way; cluster.HostIP is the host's
//     end of the veth.
//   - cluster.StartOnNode("imds", filepath.Join(cluster.NodeBinDir, "ec2-metadata-mock"), ...)
//     starts a long-running process on the node (the AWS metadata mock, a DNS stub), logging to
//     cluster.LogFile("imds"); Down kills it if the test does not.
//   - cluster.ImportImage adds an image tarball to the node; cluster.LogFile("kubelet") is a
//     daemon's log; cluster.ResidentBytes sums the memory of all the cluster's processes.
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
// slot, which names its network namespace (kops-node-N), veth and 198.18.N.0/24 addresses.
//
// The workarounds this machine kind needs (cgroup v1, no CAP_SYS_RESOURCE, no dummy links) are
// in the daemons' configuration, with their reasons: configs.go.
package nodecluster
