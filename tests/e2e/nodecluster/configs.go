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
	"net"
	"os"
	"path/filepath"
	"strconv"

	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
)

// The daemons' configuration files and flags. Everything a daemon writes goes under the state
// directory or into the node's own mount namespace (see namespaces.go), never to the host's
// default places (/var/lib/kubelet, /run/containerd, /etc/cni, ...).

// kubeletTunables are the kernel settings kubelet insists on (it sets them when they differ). They
// are global to the machine, so the node's mount namespace shows kubelet files holding these
// values over /proc/sys instead, and the host keeps its own.
var kubeletTunables = map[string]string{
	"vm/overcommit_memory":      "1",
	"vm/panic_on_oom":           "0",
	"kernel/panic":              "10",
	"kernel/panic_on_oops":      "1",
	"kernel/keys/root_maxkeys":  "1000000",
	"kernel/keys/root_maxbytes": "25000000",
}

// certs are the paths of the cluster's keys and certificates.
type certs struct {
	ca, caKey                      string
	apiServer, apiServerKey        string
	kubeletClient, kubeletClientKy string
	saKey, saPub                   string
	// The front-proxy CA and the API server's client certificate towards aggregated API servers
	// (frontproxy.go).
	frontProxyCA, frontProxyClient, frontProxyClientKey string
}

// kubeletServing is where a node's kubelet serving certificate and key are (writePKI).
func kubeletServing(n nodeLayout) (cert, key string) {
	return filepath.Join(n.p.pki(), "kubelet-serving.crt"), filepath.Join(n.p.pki(), "kubelet-serving.key")
}

// writePKI makes the CA, the serving certificates, the service account key and a kubeconfig for
// every identity, admin included; each node's kubelet gets its serving certificate and kubeconfig
// in the node's folder.
func writePKI(p paths, nodes []nodeLayout, clusterName string) (certs, error) {
	var c certs
	dir := p.pki()
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return c, err
	}
	ca, err := newCA("kops-node-ca")
	if err != nil {
		return c, err
	}
	if c.ca, c.caKey, err = ca.write(dir, "ca"); err != nil {
		return c, err
	}
	nodeIP := net.ParseIP(nodes[0].ip())
	_, serviceNet, _ := net.ParseCIDR(ServiceCIDR)
	kubernetesIP := nextIP(serviceNet.IP)
	apiServer, err := ca.servingCert("kube-apiserver",
		[]string{"kubernetes", "kubernetes.default", "kubernetes.default.svc", "kubernetes.default.svc." + ClusterDomain, "localhost", "api." + clusterName},
		[]net.IP{nodeIP, kubernetesIP, net.IPv4(127, 0, 0, 1)})
	if err != nil {
		return c, err
	}
	if c.apiServer, c.apiServerKey, err = apiServer.write(dir, "apiserver"); err != nil {
		return c, err
	}
	// The API server's identity towards kubelet (logs, exec): a member of system:masters, which
	// kubelet's webhook authorization then allows.
	kubeletClient, err := ca.clientCert("kube-apiserver-kubelet-client", "system:masters")
	if err != nil {
		return c, err
	}
	if c.kubeletClient, c.kubeletClientKy, err = kubeletClient.write(dir, "apiserver-kubelet-client"); err != nil {
		return c, err
	}
	if c.saKey, c.saPub, err = serviceAccountKey(dir); err != nil {
		return c, err
	}
	if c.frontProxyCA, c.frontProxyClient, c.frontProxyClientKey, err = writeFrontProxyPKI(dir); err != nil {
		return c, err
	}
	server := fmt.Sprintf("https://%s", net.JoinHostPort(nodes[0].ip(), strconv.Itoa(apiServerPort)))
	identities := []struct {
		file, user string
		groups     []string
	}{
		{"admin", "kops-node-admin", []string{"system:masters"}},
		{"controller-manager", "system:kube-controller-manager", nil},
		{"scheduler", "system:kube-scheduler", nil},
		{"kube-proxy", "system:kube-proxy", nil},
	}
	for _, id := range identities {
		pair, err := ca.clientCert(id.user, id.groups...)
		if err != nil {
			return c, err
		}
		path := filepath.Join(p.config(), id.file+".kubeconfig")
		context := "kops-node"
		if id.file == "admin" {
			// The user's kubeconfig: its context, cluster and user are named after the kops
			// cluster, as kops names them.
			path, context = p.kubeconfig(), clusterName
		}
		if err := writeKubeconfig(path, context, server, ca.certPEM, pair); err != nil {
			return c, err
		}
	}
	for _, n := range nodes {
		if err := writeKubeletPKI(ca, n, server); err != nil {
			return c, fmt.Errorf("writing the keys of %s: %w", n.name(), err)
		}
	}
	return c, nil
}

// writeKubeletPKI writes a node's kubelet serving certificate, for both its addresses, and its
// kubeconfig as system:node:<name> (what the Node authorizer and NodeRestriction expect).
func writeKubeletPKI(ca *keyPair, n nodeLayout, server string) error {
	for _, dir := range []string{n.p.pki(), n.p.config()} {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return err
		}
	}
	serving, err := ca.servingCert(n.name(), []string{n.name()}, []net.IP{net.ParseIP(n.ip()), net.ParseIP(n.ipv6())})
	if err != nil {
		return err
	}
	if _, _, err := serving.write(n.p.pki(), "kubelet-serving"); err != nil {
		return err
	}
	client, err := ca.clientCert("system:node:"+n.name(), "system:nodes")
	if err != nil {
		return err
	}
	return writeKubeconfig(filepath.Join(n.p.config(), "kubelet.kubeconfig"), "kops-node", server, ca.certPEM, client)
}

func writeKubeconfig(path, name, server string, caPEM []byte, pair *keyPair) error {
	return clientcmd.WriteToFile(clientcmdapi.Config{
		Clusters:       map[string]*clientcmdapi.Cluster{name: {Server: server, CertificateAuthorityData: caPEM}},
		AuthInfos:      map[string]*clientcmdapi.AuthInfo{name: {ClientCertificateData: pair.certPEM, ClientKeyData: pair.keyPEM}},
		Contexts:       map[string]*clientcmdapi.Context{name: {Cluster: name, AuthInfo: name}},
		CurrentContext: name,
	}, path)
}

func nextIP(ip net.IP) net.IP {
	out := make(net.IP, len(ip.To4()))
	copy(out, ip.To4())
	for i := len(out) - 1; i >= 0; i-- {
		out[i]++
		if out[i] != 0 {
			break
		}
	}
	return out
}

// writeNodeConfigs writes a node's containerd, kubelet, kube-proxy and CNI configuration, its
// resolv.conf and the kernel tunables kubelet reads. kube-proxy's kubeconfig is the cluster's
// (in cluster, the first node's folder).
func writeNodeConfigs(n nodeLayout, cluster paths, c certs, nodes []nodeLayout, leaseSeconds int) error {
	p := n.p
	for _, dir := range []string{p.config(), p.cniConf(), p.sysctls(), p.podLogs(), p.kubelet(), p.containerd()} {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
	}
	files := map[string]string{
		filepath.Join(p.config(), "containerd.toml"):     containerdConfig(p),
		filepath.Join(p.config(), "kubelet.yaml"):        kubeletConfig(n, c, leaseSeconds),
		filepath.Join(p.config(), "kube-proxy.yaml"):     kubeProxyConfig(n, cluster),
		filepath.Join(p.cniConf(), "10-bridge.conflist"): cniConfig(n),
		// Pods with dnsPolicy Default (CoreDNS itself) resolve through the first node, on every
		// node: its address, where a test may run an upstream stub on port 53 (NodeCommand,
		// StartOnNode). Without one, a lookup is refused at once instead of leaving the machine.
		p.resolvConf(): fmt.Sprintf("nameserver %s\n", nodes[0].ip()),
	}
	for name, value := range kubeletTunables {
		files[filepath.Join(p.sysctls(), filepath.Base(name))] = value + "\n"
	}
	for path, content := range files {
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			return err
		}
	}
	return nil
}

func containerdConfig(p paths) string {
	// restrict_oom_score_adj: runc cannot lower a container's OOM score without
	// CAP_SYS_RESOURCE, which this kind of machine lacks ("can't get final child's PID from pipe").
	// Root: runc's state, here rather than under the host's /run/containerd/runc.
	return fmt.Sprintf(`version = 2
root = %q
state = %q
oom_score = 0

[grpc]
  address = %q

[ttrpc]
  address = ""

[debug]
  address = ""

[metrics]
  address = ""

[plugins."io.containerd.internal.v1.opt"]
  path = %q

[plugins."io.containerd.grpc.v1.cri"]
  sandbox_image = %q
  restrict_oom_score_adj = true
  enable_selinux = false
  stream_server_address = "127.0.0.1"
  stream_server_port = "0"

  [plugins."io.containerd.grpc.v1.cri".containerd]
    snapshotter = "overlayfs"
    default_runtime_name = "runc"

    [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc]
      runtime_type = "io.containerd.runc.v2"

      [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc.options]
        SystemdCgroup = false
        Root = %q

  [plugins."io.containerd.grpc.v1.cri".cni]
    bin_dir = "/usr/lib/cni"
    conf_dir = %q
    max_conf_num = 1
`, filepath.Join(p.containerd(), "root"), filepath.Join(p.containerd(), "state"), p.containerdSocket(),
		filepath.Join(p.containerd(), "opt"), PauseImage, filepath.Join(p.containerd(), "runc"), p.cniConf())
}

func kubeletConfig(n nodeLayout, c certs, leaseSeconds int) string {
	p := n.p
	cert, key := kubeletServing(n)
	// failCgroupV1: this kind of machine has cgroup v1 only. cgroupRoot: the cluster's own cgroup,
	// so that two clusters' pods never share one. imageGCHighThresholdPercent 100: nothing can be
	// pulled again, so no image is ever collected. Eviction thresholds low: the node shares its disk
	// with the machine, and an eviction would fail a test for another's files.
	return fmt.Sprintf(`apiVersion: kubelet.config.k8s.io/v1beta1
kind: KubeletConfiguration
failCgroupV1: false
cgroupDriver: cgroupfs
cgroupRoot: /%s
cgroupsPerQOS: true
enforceNodeAllocatable: [pods]
containerRuntimeEndpoint: unix://%s
address: %s
port: 10250
readOnlyPort: 0
healthzBindAddress: %s
healthzPort: 10248
tlsCertFile: %s
tlsPrivateKeyFile: %s
authentication:
  anonymous:
    enabled: false
  webhook:
    enabled: true
  x509:
    clientCAFile: %s
authorization:
  mode: Webhook
clusterDomain: %s
clusterDNS: [%s]
resolvConf: %s
podLogsDir: %s
failSwapOn: false
imageGCHighThresholdPercent: 100
imageGCLowThresholdPercent: 99
evictionHard:
  memory.available: 100Mi
  nodefs.available: "1%%"
  nodefs.inodesFree: "1%%"
  imagefs.available: "1%%"
serializeImagePulls: false
rotateCertificates: false
serverTLSBootstrap: false
nodeLeaseDurationSeconds: %d
registerNode: true
maxPods: 110
staticPodPath: ""
`, n.cgroup(), p.containerdSocket(), n.ip(), n.ip(), cert, key, c.ca,
		ClusterDomain, KubeDNSServerIP, p.resolvConf(), p.podLogs(), leaseSeconds)
}

func kubeProxyConfig(n nodeLayout, cluster paths) string {
	// conntrack zeros: leave the conntrack table size and timeouts alone (the size is global to
	// the machine). clusterCIDR both families: pods are dual-stack, and kube-proxy runs both.
	return fmt.Sprintf(`apiVersion: kubeproxy.config.k8s.io/v1alpha1
kind: KubeProxyConfiguration
mode: iptables
hostnameOverride: %s
clusterCIDR: %s
bindAddress: %s
healthzBindAddress: %s:10256
metricsBindAddress: 127.0.0.1:10249
clientConnection:
  kubeconfig: %s
conntrack:
  maxPerCore: 0
  min: 0
  tcpEstablishedTimeout: 0s
  tcpCloseWaitTimeout: 0s
`, n.name(), ClusterCIDR+","+ClusterCIDRv6, n.ip(), n.ip(), filepath.Join(cluster.config(), "kube-proxy.kubeconfig"))
}

func cniConfig(n nodeLayout) string {
	// A bridge for the pods, an address of each family from the node's pod ranges, a route to
	// everything through the bridge (the node routes services and the other nodes' pod ranges;
	// nothing else is reachable), masquerade out of the node's pod range (a pod reaching a pod of
	// another node shows the node's address, which CoreDNS does not mind), hairpin so a pod
	// reaches itself through a Service.
	return fmt.Sprintf(`{
  "cniVersion": "0.4.0",
  "name": "kops-node-%d",
  "plugins": [
    {
      "type": "bridge",
      "bridge": "cni0",
      "isGateway": true,
      "ipMasq": true,
      "hairpinMode": true,
      "ipam": {
        "type": "host-local",
        "ranges": [[{"subnet": %q}], [{"subnet": %q}]],
        "routes": [{"dst": "0.0.0.0/0"}, {"dst": "::/0"}]
      }
    },
    {"type": "portmap", "capabilities": {"portMappings": true}}
  ]
}
`, int(n.s), n.podCIDR(), n.podCIDRv6())
}
