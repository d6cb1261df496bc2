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

package node

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/wait"

	"k8s.io/kops/tests/e2e/nodecluster"
)

// The node-loss client: 25 lookups a second from the first node, each given lossLookupTimeout.
const (
	lossQPS           = 25
	lossLookupTimeout = 2 * time.Second
	lostNode          = "node-2"
)

// nodeLoss is what one node loss did to DNS.
type nodeLoss struct {
	// Lookups and Failed count the client's lookups from the loss to the end of the measurement.
	Lookups, Failed int
	// FirstFailure and LastFailure are when the client's failure count was first and last seen to
	// grow, after the loss (to the poll's resolution, 250 ms plus an exec).
	FirstFailure, LastFailure time.Duration
	// NotReady is when the kube-dns EndpointSlice first showed the lost node's pod not ready (the
	// node controller's doing, after the grace period); ProxyUpdated when the first node's
	// kube-proxy had left it out of its rules: from then on DNS answers only from the remaining pod.
	NotReady, ProxyUpdated time.Duration
	LastError              string
}

// coreDNSOnEveryNode scales CoreDNS to one replica per node, as coredns-autoscaler does on a
// two-node cluster with preventSinglePointFailure (its image cannot be had offline), and returns
// the CoreDNS pod of each node once all are ready. It asserts that the scheduler spread them.
func coreDNSOnEveryNode(t testing.TB) map[string]string {
	t.Helper()
	ctx := context.Background()
	replicas := len(cluster.Nodes)
	patch := fmt.Sprintf(`{"spec":{"replicas":%d}}`, replicas)
	_, err := cluster.Clientset.AppsV1().Deployments("kube-system").Patch(ctx, "coredns", types.StrategicMergePatchType, []byte(patch), metav1.PatchOptions{})
	require.NoError(t, err)
	waitDeploymentAvailable(t, "kube-system", "coredns")
	pods, err := cluster.Clientset.CoreV1().Pods("kube-system").List(ctx, metav1.ListOptions{LabelSelector: "k8s-app=kube-dns"})
	require.NoError(t, err)
	byNode := map[string]string{}
	for _, p := range pods.Items {
		if p.DeletionTimestamp == nil && p.Status.Phase == corev1.PodRunning {
			assert.Empty(t, byNode[p.Spec.NodeName], "a second CoreDNS pod on %s: %s", p.Spec.NodeName, p.Name)
			byNode[p.Spec.NodeName] = p.Name
		}
	}
	for _, n := range cluster.Nodes {
		assert.NotEmpty(t, byNode[n.Name], "no CoreDNS pod on %s (the pods by node: %v)", n.Name, byNode)
	}
	return byNode
}

// kubeDNSEndpoints counts the kube-dns EndpointSlices' endpoints and the ready ones.
func kubeDNSEndpoints(ctx context.Context) (all, ready int, err error) {
	slices, err := cluster.Clientset.DiscoveryV1().EndpointSlices("kube-system").List(ctx, metav1.ListOptions{LabelSelector: "kubernetes.io/service-name=kube-dns"})
	if err != nil {
		return 0, 0, err
	}
	for _, s := range slices.Items {
		for _, e := range s.Endpoints {
			all++
			if e.Conditions.Ready == nil || *e.Conditions.Ready {
				ready++
			}
		}
	}
	return all, ready, nil
}

// proxiedDNSEndpoints counts the endpoints the first node's kube-proxy sends kube-dns's UDP port
// to: the rules of its service chain that jump to an endpoint's chain.
func proxiedDNSEndpoints(ctx context.Context) (int, error) {
	out, err := cluster.NodeCommand(ctx, "iptables-save", "-t", "nat").Output()
	if err != nil {
		return 0, err
	}
	n := 0
	for _, line := range strings.Split(string(out), "\n") {
		if strings.HasPrefix(line, "-A KUBE-SVC-") && strings.Contains(line, `"kube-system/kube-dns:dns ->`) && strings.Contains(line, "-j KUBE-SEP-") {
			n++
		}
	}
	return n, nil
}

// loseNode stops lostNode while a client on the first node resolves at lossQPS, and watches the
// client's failures, the EndpointSlice and the first node's kube-proxy rules until kube-proxy has
// dropped the lost pod and a few seconds more have passed. The node stays stopped.
func loseNode(t testing.TB, client string) nodeLoss {
	t.Helper()
	ctx := context.Background()
	before := readReport(t, client)
	start := time.Now()
	require.NoError(t, cluster.StopNode(ctx, lostNode))
	var loss nodeLoss
	lastFailed := before.Failed
	var settledAt time.Time
	err := wait.PollUntilContextTimeout(ctx, 250*time.Millisecond, 3*time.Minute, true, func(ctx context.Context) (bool, error) {
		since := time.Since(start)
		rep := readReport(t, client)
		if rep.Failed > lastFailed {
			if loss.FirstFailure == 0 {
				loss.FirstFailure = since
			}
			loss.LastFailure = since
			lastFailed = rep.Failed
			loss.LastError = rep.LastError
		}
		if loss.NotReady == 0 {
			if _, ready, err := kubeDNSEndpoints(ctx); err == nil && ready == 1 {
				loss.NotReady = time.Since(start)
			}
		}
		if loss.ProxyUpdated == 0 {
			if n, err := proxiedDNSEndpoints(ctx); err == nil && n == 1 {
				loss.ProxyUpdated = time.Since(start)
				// A lookup sent to the lost pod just before still runs to its timeout.
				settledAt = time.Now().Add(lossLookupTimeout + 3*time.Second)
			}
		}
		return !settledAt.IsZero() && time.Now().After(settledAt), nil
	})
	require.NoError(t, err, "kube-proxy on %s never dropped the CoreDNS pod of %s (endpoints not ready after %v)", nodecluster.NodeName, lostNode, loss.NotReady)
	after := readReport(t, client)
	loss.Lookups, loss.Failed = after.Lookups-before.Lookups, after.Failed-before.Failed
	return loss
}

// startResolver starts the node-loss client on the first node and waits until it has resolved
// for a few seconds without a failure.
func startResolver(t testing.TB, name string) {
	t.Helper()
	pod := nodecluster.TestClientPod("default", name, "dns", "--name", "kubernetes.default.svc.cluster.local.",
		"--qps", itoa(lossQPS), "--timeout", lossLookupTimeout.String(), "--listen", "127.0.0.1:8080")
	_, err := cluster.RunPod(context.Background(), nodecluster.OnNode(pod, nodecluster.NodeName))
	require.NoError(t, err)
	t.Cleanup(func() { assert.NoError(t, cluster.DeletePod(context.Background(), "default", name)) })
	time.Sleep(3 * time.Second)
	rep := readReport(t, name)
	require.Zero(t, rep.Failed, "the client fails before any node is lost: %s", rep.LastError)
	require.Positive(t, rep.Lookups)
}

// restoreAfterLoss brings the lost node back and CoreDNS back to one replica, for the tests after.
func restoreAfterLoss(t testing.TB) {
	t.Helper()
	ctx := context.Background()
	if err := cluster.StartNode(ctx, lostNode); err != nil && !strings.Contains(err.Error(), "is not stopped") {
		assert.NoError(t, err)
	}
	_, err := cluster.Clientset.AppsV1().Deployments("kube-system").Patch(ctx, "coredns", types.StrategicMergePatchType, []byte(`{"spec":{"replicas":1}}`), metav1.PatchOptions{})
	assert.NoError(t, err)
	waitDeploymentAvailable(t, "kube-system", "coredns")
}

// TestNodeLossDNS loses a node while a client on the other resolves a cluster name at 25 lookups
// a second through the kube-dns ClusterIP, with built-in CoreDNS (as kops renders it) scaled to
// one pod per node, as the autoscaler does.
//
// What is lost, and what the goal is: a node that dies takes its CoreDNS pod with it, and nothing
// tells the cluster at once. kube-proxy on the client's node keeps sending about half the lookups
// to the dead pod until the node controller marks the node, and so its pods, not ready (after
// --node-monitor-grace-period: 50 s by Kubernetes 1.35's default, which kops keeps; 15 s in the
// tests' clusters, TestNodeMonitorGracePeriod), the EndpointSlice says so and kube-proxy drops the
// endpoint. The test client does not retry a lookup (Go's resolver would only try again after
// resolv.conf's 5 s timeout, past the client's 2 s), so those lookups fail: they are expected,
// counted and reported. The goal is 0 failures after kube-proxy's update: every lookup that
// starts once the first node's rules no longer name the dead pod is answered, i.e. no failure is
// seen later than the update plus one lookup timeout (and the polls' slack).
func TestNodeLossDNS(t *testing.T) {
	require.GreaterOrEqual(t, len(cluster.Nodes), 2, "the node tests run on two nodes")
	flow := newKopsFlow(t, "")
	flow.switchTo(t, builtIn)
	t.Cleanup(func() { restoreAfterLoss(t) })
	byNode := coreDNSOnEveryNode(t)
	t.Logf("CoreDNS pods by node: %v", byNode)
	startResolver(t, "node-loss")

	loss := loseNode(t, "node-loss")
	t.Logf("node %s lost: %d lookups, %d failed (first %.1fs, last %.1fs after the loss, last error %q); pod not ready in the EndpointSlice after %.1fs, kube-proxy updated after %.1fs",
		lostNode, loss.Lookups, loss.Failed, loss.FirstFailure.Seconds(), loss.LastFailure.Seconds(), loss.LastError, loss.NotReady.Seconds(), loss.ProxyUpdated.Seconds())
	// The slack: the update is seen by polling, and the client's clock is read through an exec,
	// each up to a second late on a loaded machine.
	assert.LessOrEqual(t, loss.LastFailure, loss.ProxyUpdated+lossLookupTimeout+3*time.Second,
		"a lookup failed after kube-proxy had dropped the lost pod (%d failed, the last: %s)", loss.Failed, loss.LastError)
	assert.GreaterOrEqual(t, float64(loss.Lookups), 0.8*lossQPS*(loss.ProxyUpdated.Seconds()+lossLookupTimeout.Seconds()),
		"the client kept its rate of %d lookups a second through the loss", lossQPS)
	assert.LessOrEqual(t, loss.NotReady, nodecluster.TestNodeMonitorGracePeriod+15*time.Second,
		"the node controller marks the lost node's pod not ready soon after the grace period")
	rep := readReport(t, "node-loss")
	assert.Equal(t, loss.Failed, rep.Failed, "no failure before the loss, none after the measurement")
}
