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
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/dynamic"

	"k8s.io/kops/tests/e2e/nodecluster"
)

// operatorFlags turns the addon operators on (KOPS_FEATURE_FLAGS).
const operatorFlags = "ClusterAddons,UseAddonOperators"

// dnsMode is one way of running CoreDNS: built in (no flags), or through the CoreDNS object with
// the flags on, expanded by the operator in the cluster (ServerSide) or by kops (ClientSide).
type dnsMode struct {
	name, flags, operatorMode string
}

var (
	builtIn    = dnsMode{"built-in", "", ""}
	serverSide = dnsMode{"ServerSide", operatorFlags, "ServerSide"}
	clientSide = dnsMode{"ClientSide", operatorFlags, "ClientSide"}
)

var coreDNSObjects = schema.GroupVersionResource{Group: "addons.x-k8s.io", Version: "v1alpha1", Resource: "corednses"}

// switchTo puts the cluster in mode as a user does (the flags in the environment, `kops edit
// cluster` for spec.kubeDNS.operatorMode, `kops update cluster --yes`, `channels apply`) and waits
// until CoreDNS runs as that mode says: in ServerSide the operator has reported the CoreDNS object
// healthy for its latest generation. It returns how long that took.
func (f *kopsFlow) switchTo(t testing.TB, mode dnsMode) time.Duration {
	t.Helper()
	start := time.Now()
	f.setFeatureFlags(mode.flags)
	f.editCluster(t, func(doc map[string]any) {
		if mode.operatorMode == "" {
			setKubeDNS(doc, "operatorMode", nil)
		} else {
			setKubeDNS(doc, "operatorMode", mode.operatorMode)
		}
	})
	f.updateAndApply(t)
	if mode == serverSide {
		waitDeploymentAvailable(t, "coredns-operator-system", "coredns-operator")
		waitCoreDNSHealthy(t)
	}
	waitDeploymentAvailable(t, "kube-system", "coredns")
	return time.Since(start)
}

// waitCoreDNSHealthy waits until the operator reports the CoreDNS object healthy for its latest
// generation.
func waitCoreDNSHealthy(t testing.TB) {
	t.Helper()
	dyn, err := dynamic.NewForConfig(cluster.Config)
	require.NoError(t, err)
	var last *unstructured.Unstructured
	err = wait.PollUntilContextTimeout(context.Background(), 250*time.Millisecond, 3*time.Minute, true, func(ctx context.Context) (bool, error) {
		u, err := dyn.Resource(coreDNSObjects).Namespace("kube-system").Get(ctx, "coredns", metav1.GetOptions{})
		if err != nil {
			return false, nil
		}
		last = u
		healthy, _, _ := unstructured.NestedBool(u.Object, "status", "healthy")
		observed, _, _ := unstructured.NestedInt64(u.Object, "status", "observedGeneration")
		return healthy && observed >= u.GetGeneration(), nil
	})
	if err != nil {
		status := "never seen"
		if last != nil {
			status = toJSON(last.Object["status"])
		}
		require.NoError(t, err, "the CoreDNS object is not healthy: status %s; the operator's pods: %s", status, podStates(t, "coredns-operator-system"))
	}
}

func toJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func podStates(t testing.TB, namespace string) string {
	pods, err := cluster.Clientset.CoreV1().Pods(namespace).List(context.Background(), metav1.ListOptions{})
	if err != nil {
		return err.Error()
	}
	var states []string
	for _, p := range pods.Items {
		states = append(states, p.Name+": "+string(p.Status.Phase)+" "+containerStates(p))
	}
	return strings.Join(states, "; ")
}

// kubeDNSIdentity is what must survive every switch: the Service's UID and cluster IP.
type kubeDNSIdentity struct {
	UID       types.UID
	ClusterIP string
}

func currentKubeDNS(t testing.TB) kubeDNSIdentity {
	t.Helper()
	svc, err := cluster.Clientset.CoreV1().Services("kube-system").Get(context.Background(), "kube-dns", metav1.GetOptions{})
	require.NoError(t, err)
	return kubeDNSIdentity{UID: svc.UID, ClusterIP: svc.Spec.ClusterIP}
}

// withStubResolvers points spec.kubeDNS at the node's stub server (startStubDNS): stubDomains for
// stubDomain, upstreamNameservers for every other name outside the cluster.
func (f *kopsFlow) withStubResolvers(t testing.TB) {
	t.Helper()
	f.editCluster(t, func(doc map[string]any) {
		setKubeDNS(doc, "stubDomains", map[string]any{stubDomain: []any{cluster.NodeIP + ":" + itoa(stubDomainPort)}})
		setKubeDNS(doc, "upstreamNameservers", []any{cluster.NodeIP})
	})
}

// assertAnswers resolves, from a pod through its resolv.conf (the kube-dns ClusterIP), a cluster
// name, a name of the stub domain and one only the upstream nameserver knows.
func assertAnswers(t *testing.T, namespace, pod string) {
	t.Helper()
	ctx := context.Background()
	kubernetes, err := cluster.Clientset.CoreV1().Services("default").Get(ctx, "kubernetes", metav1.GetOptions{})
	require.NoError(t, err)
	// A new kube-dns endpoint is programmed by kube-proxy a moment after the Deployment is available.
	waitAnswer(t, pod, "kubernetes.default.svc.cluster.local.", kubernetes.Spec.ClusterIP)
	for _, tc := range []struct {
		what, name, want string
		args             []string
	}{
		{"a cluster name", "kubernetes.default.svc.cluster.local.", kubernetes.Spec.ClusterIP, nil},
		{"a cluster name through the search list", "kubernetes.default", kubernetes.Spec.ClusterIP, nil},
		{"a cluster name asked of the ClusterIP", "kubernetes.default.svc.cluster.local.", kubernetes.Spec.ClusterIP, []string{"--server", nodecluster.KubeDNSServerIP}},
		{"a stub domain's name", stubName, stubAddress, nil},
		{"an upstream nameserver's name", upstreamName, upstreamAddress, nil},
	} {
		r, err := cluster.Exec(ctx, namespace, pod, "client", append([]string{"/testclient", "resolve", tc.name}, tc.args...)...)
		require.NoError(t, err)
		if !assert.Equal(t, 0, r.ExitCode, "%s: stdout: %s\nstderr: %s", tc.what, r.Stdout, r.Stderr) {
			continue
		}
		var got lookup
		require.NoError(t, json.Unmarshal([]byte(strings.TrimSpace(r.Stdout)), &got), r.Stdout)
		assert.Equal(t, []string{tc.want}, got.Addresses, tc.what)
	}
}

// dnsReport is the test client's cumulative report of `testclient dns`.
type dnsReport struct {
	Elapsed   float64 `json:"elapsed_s"`
	Lookups   int     `json:"lookups"`
	Failed    int     `json:"failed"`
	P50       float64 `json:"p50_ms"`
	P99       float64 `json:"p99_ms"`
	Max       float64 `json:"max_ms"`
	LastError string  `json:"last_error"`
}

// resolverPod starts a pod that looks names up through kube-dns at qps until it is deleted, and
// serves its cumulative report on port 8080.
func resolverPod(t testing.TB, name string, qps int, names ...string) {
	t.Helper()
	pod := nodecluster.TestClientPod("default", name, "dns", "--name", strings.Join(names, ","), "--qps", itoa(qps), "--listen", "127.0.0.1:8080")
	_, err := cluster.RunPod(context.Background(), pod)
	require.NoError(t, err)
	t.Cleanup(func() { assert.NoError(t, cluster.DeletePod(context.Background(), "default", name)) })
}

// readReport asks the resolver pod for its report so far.
func readReport(t testing.TB, name string) dnsReport {
	t.Helper()
	r, err := cluster.Exec(context.Background(), "default", name, "client", "/testclient", "http", "--url", "http://127.0.0.1:8080/report")
	require.NoError(t, err)
	require.Equal(t, 0, r.ExitCode, "stdout: %s\nstderr: %s", r.Stdout, r.Stderr)
	var res struct {
		Body string `json:"body"`
	}
	require.NoError(t, json.Unmarshal([]byte(strings.TrimSpace(r.Stdout)), &res), r.Stdout)
	var rep dnsReport
	require.NoError(t, json.Unmarshal([]byte(res.Body), &rep), res.Body)
	return rep
}

// TestDNSModesAndFlagFlips proves, from real pods, that CoreDNS answers through the kube-dns
// ClusterIP in every mode (built-in, ServerSide, ClientSide) for the cluster's names, for a stub
// domain and through the upstream nameservers, both served by a DNS server on the node; and that
// switching built-in → ServerSide → ClientSide → built-in as a user does loses no lookup of a
// client resolving all the while, and keeps the kube-dns Service (UID and cluster IP).
func TestDNSModesAndFlagFlips(t *testing.T) {
	startStubDNS(t)
	flow := newKopsFlow(t, "")
	flow.withStubResolvers(t)
	flow.switchTo(t, builtIn)
	before := currentKubeDNS(t)
	require.Equal(t, nodecluster.KubeDNSServerIP, before.ClusterIP)

	probe := nodecluster.TestClientPod("default", "dns-modes")
	_, err := cluster.RunPod(context.Background(), probe)
	require.NoError(t, err)
	t.Cleanup(func() { assert.NoError(t, cluster.DeletePod(context.Background(), "default", "dns-modes")) })
	// A CoreDNS left running by an earlier case reloads the new Corefile in its own time.
	waitAnswer(t, "dns-modes", stubName, stubAddress)
	waitAnswer(t, "dns-modes", upstreamName, upstreamAddress)
	t.Run("built-in answers", func(t *testing.T) { assertAnswers(t, "default", "dns-modes") })

	// The client under test: 25 lookups a second, a cluster name, a stub-domain name and an
	// upstream one in turn, from before the first switch to after the last.
	const qps = 25
	resolverPod(t, "dns-flips", qps, "kubernetes.default.svc.cluster.local.", stubName, upstreamName)

	owners := map[dnsMode]string{serverSide: "coredns.addons.x-k8s.io", clientSide: "coredns.addons.k8s.io", builtIn: "coredns.addons.k8s.io"}
	for _, mode := range []dnsMode{serverSide, clientSide, builtIn} {
		t.Run("to "+mode.name, func(t *testing.T) {
			took := flow.switchTo(t, mode)
			t.Logf("switched to %s in %.1fs; CoreDNS pods: %s", mode.name, took.Seconds(), coreDNSPods(t))
			d, err := cluster.Clientset.AppsV1().Deployments("kube-system").Get(context.Background(), "coredns", metav1.GetOptions{})
			require.NoError(t, err)
			assert.Equal(t, owners[mode], d.Labels["addon.kops.k8s.io/name"], "the addon that owns CoreDNS in this mode")
			assertAnswers(t, "default", "dns-modes")
			assert.Equal(t, before, currentKubeDNS(t), "the kube-dns Service keeps its UID and cluster IP")
			_, err = cluster.Clientset.AppsV1().Deployments("coredns-operator-system").Get(context.Background(), "coredns-operator", metav1.GetOptions{})
			if mode == serverSide {
				assert.NoError(t, err, "the operator runs")
			} else {
				assert.True(t, apierrors.IsNotFound(err), "no operator runs: %v", err)
			}
		})
	}

	// Let the last rollout's lookups run a moment past it.
	time.Sleep(3 * time.Second)
	rep := readReport(t, "dns-flips")
	t.Logf("across the switches: %d lookups in %.1fs, %d failed, p50 %.1fms p99 %.1fms max %.1fms", rep.Lookups, rep.Elapsed, rep.Failed, rep.P50, rep.P99, rep.Max)
	assert.Zero(t, rep.Failed, "failed lookups (the last: %s)", rep.LastError)
	assert.GreaterOrEqual(t, float64(rep.Lookups), 0.9*qps*rep.Elapsed, "the client kept its rate of %d lookups a second", qps)
	assert.GreaterOrEqual(t, rep.Lookups, 20*10, "the client resolved through the switches, not only before them")
}

func itoa(i int) string { return strconv.Itoa(i) }

// coreDNSPods names CoreDNS's pods, to show in the log whether a switch rolled them.
func coreDNSPods(t testing.TB) string {
	pods, err := cluster.Clientset.CoreV1().Pods("kube-system").List(context.Background(), metav1.ListOptions{LabelSelector: "k8s-app=kube-dns"})
	if err != nil {
		return err.Error()
	}
	var names []string
	for _, p := range pods.Items {
		names = append(names, p.Name)
	}
	return strings.Join(names, ", ")
}
