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
	kubelet, kubeletKey            string
	saKey, saPub                   string
	// The front-proxy CA and the API server's client certificate towards aggregated API servers
	// (frontproxy.go).
	frontProxyCA, frontProxyClient, frontProxyClientKey string
}

// writePKI makes the CA, the serving certificates, the service account key and a kubeconfig for
// every identity, admin included.
func writePKI(p paths, s slot, clusterName string) (certs, error) {
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
	nodeIP := net.ParseIP(s.nodeIP())
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
	kubelet, err := ca.servingCert(NodeName, []string{NodeName}, []net.IP{nodeIP})
	if err != nil {
		return c, err
	}
	if c.kubelet, c.kubeletKey, err = kubelet.write(dir, "kubelet-serving"); err != nil {
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
	server := fmt.Sprintf("https://%s", net.JoinHostPort(s.nodeIP(), strconv.Itoa(apiServerPort)))
	identities := []struct {
		file, user string
		groups     []string
	}{
		{"admin", "kops-node-admin", []string{"system:masters"}},
		{"kubelet", "system:node:" + NodeName, []string{"system:nodes"}},
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
	return c, nil
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

// writeNodeConfigs writes containerd's, kubelet's, kube-proxy's and the CNI configuration, the
// node's resolv.conf and the kernel tunables kubelet reads.
func writeNodeConfigs(p paths, s slot, c certs) error {
	for _, dir := range []string{p.config(), p.cniConf(), p.sysctls(), p.podLogs(), p.kubelet(), p.containerd()} {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
	}
	files := map[string]string{
		filepath.Join(p.config(), "containerd.toml"):     containerdConfig(p),
		filepath.Join(p.config(), "kubelet.yaml"):        kubeletConfig(p, s, c),
		filepath.Join(p.config(), "kube-proxy.yaml"):     kubeProxyConfig(p, s),
		filepath.Join(p.cniConf(), "10-bridge.conflist"): cniConfig(s),
		// Pods with dnsPolicy Default (CoreDNS itself) resolve through the node: its address, where a
		// test may run an upstream stub on port 53. Without one, a lookup is refused at once
		// instead of leaving the machine.
		p.resolvConf(): fmt.Sprintf("nameserver %s\n", s.nodeIP()),
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

func kubeletConfig(p paths, s slot, c certs) string {
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
registerNode: true
maxPods: 110
staticPodPath: ""
`, s.cgroupName(), p.containerdSocket(), s.nodeIP(), s.nodeIP(), c.kubelet, c.kubeletKey, c.ca,
		ClusterDomain, KubeDNSServerIP, p.resolvConf(), p.podLogs())
}

func kubeProxyConfig(p paths, s slot) string {
	// conntrack zeros: leave the conntrack table size and timeouts alone (the size is global to
	// the machine).
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
`, NodeName, ClusterCIDR, s.nodeIP(), s.nodeIP(), filepath.Join(p.config(), "kube-proxy.kubeconfig"))
}

func cniConfig(s slot) string {
	// A bridge for the pods, addresses from the node's pod range, a route to everything through
	// the bridge (the node routes services; nothing else is reachable), masquerade out of the pod
	// range, hairpin so a pod reaches itself through a Service.
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
        "ranges": [[{"subnet": %q}]],
        "routes": [{"dst": "0.0.0.0/0"}]
      }
    },
    {"type": "portmap", "capabilities": {"portMappings": true}}
  ]
}
`, int(s), PodCIDR)
}
