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
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
)

// The control plane's and node's flags. Every address is the node's or its loopback (inside its
// network namespace, so no port is shared with anything on the host).

func etcdArgs(p paths) []string {
	return []string{
		"--name=node-1",
		"--data-dir=" + p.etcdData(),
		"--listen-client-urls=http://127.0.0.1:2379",
		"--advertise-client-urls=http://127.0.0.1:2379",
		"--listen-peer-urls=http://127.0.0.1:2380",
		"--initial-advertise-peer-urls=http://127.0.0.1:2380",
		"--initial-cluster=node-1=http://127.0.0.1:2380",
		"--listen-metrics-urls=",
		// A throwaway cluster: losing its data on a power cut costs nothing, fsync costs every write.
		"--unsafe-no-fsync",
		"--log-level=warn",
	}
}

func apiServerArgs(n nodeLayout, c certs) []string {
	return append([]string{
		"--etcd-servers=http://127.0.0.1:2379",
		"--advertise-address=" + n.ip(),
		"--bind-address=" + n.ip(),
		fmt.Sprintf("--secure-port=%d", apiServerPort),
		"--service-cluster-ip-range=" + ServiceCIDR,
		"--authorization-mode=Node,RBAC",
		"--enable-admission-plugins=NodeRestriction",
		"--allow-privileged=true",
		"--client-ca-file=" + c.ca,
		"--tls-cert-file=" + c.apiServer,
		"--tls-private-key-file=" + c.apiServerKey,
		"--kubelet-client-certificate=" + c.kubeletClient,
		"--kubelet-client-key=" + c.kubeletClientKy,
		"--kubelet-certificate-authority=" + c.ca,
		// kubectl logs and exec reach kubelet at the node's address, not its name.
		"--kubelet-preferred-address-types=InternalIP",
		"--service-account-issuer=https://kubernetes.default.svc." + ClusterDomain,
		"--service-account-key-file=" + c.saPub,
		"--service-account-signing-key-file=" + c.saKey,
		"--profiling=false",
		"--v=1",
	}, aggregationArgs(c)...)
}

// controllerManagerArgs: no --allocate-node-cidrs, because each node's CNI configuration holds its
// pod ranges from the start (nodeLayout.podCIDR) and Up writes them into the Node (spec.podCIDRs),
// rather than learning whatever the allocator hands out in whatever order the nodes register.
// nodeMonitorGracePeriod, when set, is how long a node may stop renewing its lease before the node
// controller marks it, and its pods, not ready (Kubernetes's default otherwise).
func controllerManagerArgs(p paths, c certs, nodeMonitorGracePeriod time.Duration) []string {
	kubeconfig := filepath.Join(p.config(), "controller-manager.kubeconfig")
	args := []string{
		"--kubeconfig=" + kubeconfig,
		"--authentication-kubeconfig=" + kubeconfig,
		"--authorization-kubeconfig=" + kubeconfig,
		"--bind-address=127.0.0.1",
		"--leader-elect=false",
		"--use-service-account-credentials=true",
		"--service-account-private-key-file=" + c.saKey,
		"--root-ca-file=" + c.ca,
		"--cluster-signing-cert-file=" + c.ca,
		"--cluster-signing-key-file=" + c.caKey,
		"--service-cluster-ip-range=" + ServiceCIDR,
		"--cluster-cidr=" + ClusterCIDR + "," + ClusterCIDRv6,
		"--allocate-node-cidrs=false",
		"--profiling=false",
		"--v=1",
	}
	if nodeMonitorGracePeriod > 0 {
		args = append(args, "--node-monitor-grace-period="+nodeMonitorGracePeriod.String(), "--node-monitor-period=1s")
	}
	return args
}

func schedulerArgs(p paths) []string {
	kubeconfig := filepath.Join(p.config(), "scheduler.kubeconfig")
	return []string{
		"--kubeconfig=" + kubeconfig,
		"--authentication-kubeconfig=" + kubeconfig,
		"--authorization-kubeconfig=" + kubeconfig,
		"--bind-address=127.0.0.1",
		"--leader-elect=false",
		"--profiling=false",
		"--v=1",
	}
}

// The zone and region every node of a test cluster is in: the single zone the tests' kops clusters
// name (--zones us-east-2a), labelled as a cloud labels its nodes.
const (
	ZoneLabel   = "topology.kubernetes.io/zone"
	RegionLabel = "topology.kubernetes.io/region"
	Zone        = "us-east-2a"
	Region      = "us-east-2"
)

func kubeletArgs(n nodeLayout) []string {
	p := n.p
	return []string{
		"--config=" + filepath.Join(p.config(), "kubelet.yaml"),
		"--kubeconfig=" + filepath.Join(p.config(), "kubelet.kubeconfig"),
		"--root-dir=" + p.kubelet(),
		"--cert-dir=" + filepath.Join(p.kubelet(), "pki"),
		"--hostname-override=" + n.name(),
		// Both families: the node is dual-stack, as its pods are.
		"--node-ip=" + n.ip() + "," + n.ipv6(),
		// A cloud's node carries its zone and region (AWS's cloud controller sets them): without
		// the zone, the scheduler ignores every node for the topology spread kops renders over
		// zone and hostname, and CoreDNS's pods need not spread over the nodes at all.
		"--node-labels=" + ZoneLabel + "=" + Zone + "," + RegionLabel + "=" + Region,
		"--v=1",
	}
}

func (c *Cluster) waitAPIServer(ctx context.Context, rec *record) error {
	return c.poll(ctx, rec, "kube-apiserver ready", 2*time.Minute, func(ctx context.Context) (bool, string) {
		body, err := c.Clientset.Discovery().RESTClient().Get().AbsPath("/readyz").DoRaw(ctx)
		if err != nil {
			return false, err.Error()
		}
		return true, string(body)
	})
}

// waitNodeReady writes the node's pod ranges into it once it has registered, and waits for it to
// report Ready, its kube-proxy to have synced its rules, and the default namespace's service
// account (pods cannot be created before it exists).
func (c *Cluster) waitNodeReady(ctx context.Context, rec *record, n nodeLayout) error {
	err := c.poll(ctx, rec, "node "+n.name()+" Ready", 3*time.Minute, func(ctx context.Context) (bool, string) {
		node, err := c.Clientset.CoreV1().Nodes().Get(ctx, n.name(), metav1.GetOptions{})
		if err != nil {
			return false, err.Error()
		}
		if len(node.Spec.PodCIDRs) == 0 {
			// Set once: the API server refuses to change a node's pod ranges afterwards.
			patch := fmt.Sprintf(`{"spec":{"podCIDR":%q,"podCIDRs":[%q,%q]}}`, n.podCIDR(), n.podCIDR(), n.podCIDRv6())
			if _, err := c.Clientset.CoreV1().Nodes().Patch(ctx, n.name(), types.StrategicMergePatchType, []byte(patch), metav1.PatchOptions{}); err != nil {
				return false, "setting the pod ranges: " + err.Error()
			}
		}
		for _, cond := range node.Status.Conditions {
			if cond.Type == corev1.NodeReady {
				return cond.Status == corev1.ConditionTrue, fmt.Sprintf("Ready=%s %s: %s", cond.Status, cond.Reason, cond.Message)
			}
		}
		return false, "no Ready condition yet"
	})
	if err != nil {
		return err
	}
	err = c.poll(ctx, rec, "kube-proxy healthy", time.Minute, func(ctx context.Context) (bool, string) {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, fmt.Sprintf("http://%s:10256/healthz", n.ip()), nil)
		if err != nil {
			return false, err.Error()
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return false, err.Error()
		}
		defer func() { _ = resp.Body.Close() }()
		body, _ := io.ReadAll(io.LimitReader(resp.Body, 1024))
		return resp.StatusCode == http.StatusOK, strings.TrimSpace(string(body))
	})
	if err != nil {
		return err
	}
	return c.poll(ctx, rec, "service account default/default", time.Minute, func(ctx context.Context) (bool, string) {
		_, err := c.Clientset.CoreV1().ServiceAccounts(metav1.NamespaceDefault).Get(ctx, "default", metav1.GetOptions{})
		if err != nil {
			return false, err.Error()
		}
		return true, ""
	})
}

// progress prints a line per step with the time since the first.
type progress struct {
	out   io.Writer
	start time.Time
}

func newProgress(out io.Writer) *progress { return &progress{out: out, start: time.Now()} }

func (p *progress) step(format string, args ...any) {
	if p.out == nil {
		return
	}
	_, _ = fmt.Fprintf(p.out, "[%5.1fs] %s\n", time.Since(p.start).Seconds(), fmt.Sprintf(format, args...)) // only a progress note
}
