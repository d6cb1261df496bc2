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
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"

	"k8s.io/kops/tests/e2e/nodecluster"
)

// lookup is the test client's answer to `testclient resolve`.
type lookup struct {
	Name      string   `json:"name"`
	Addresses []string `json:"addresses"`
	Error     string   `json:"error"`
}

// TestBuiltInCoreDNS renders the built-in CoreDNS with `kops update cluster`, applies it with
// `channels apply`, and proves from a real pod that it answers for the cluster's names through
// the kube-dns ClusterIP (spec.kubeDNS.serverIP), and that `kops validate cluster` then finds the
// cluster ready, with nothing patched by hand.
func TestBuiltInCoreDNS(t *testing.T) {
	ctx := context.Background()
	flow := newKopsFlow(t, "")
	flow.updateAndApply(t)
	waitDeploymentAvailable(t, "kube-system", "coredns")

	svc, err := cluster.Clientset.CoreV1().Services("kube-system").Get(ctx, "kube-dns", metav1.GetOptions{})
	require.NoError(t, err)
	require.Equal(t, nodecluster.KubeDNSServerIP, svc.Spec.ClusterIP, "kops renders kube-dns at spec.kubeDNS.serverIP")
	kubernetes, err := cluster.Clientset.CoreV1().Services("default").Get(ctx, "kubernetes", metav1.GetOptions{})
	require.NoError(t, err)

	pod := nodecluster.TestClientPod("default", "dns-client")
	_, err = cluster.RunPod(ctx, pod)
	require.NoError(t, err)
	t.Cleanup(func() { assert.NoError(t, cluster.DeletePod(context.Background(), "default", "dns-client")) })
	// kube-proxy programs kube-dns's first endpoint a moment after the Deployment is available;
	// until then the ClusterIP refuses.
	waitAnswer(t, "dns-client", "kubernetes.default.svc.cluster.local.", kubernetes.Spec.ClusterIP)

	cases := []struct {
		name string
		args []string
	}{
		// The pod's resolv.conf, as kubelet writes it for dnsPolicy ClusterFirst: kube-dns's
		// address, the cluster's search list.
		{"through the pod's resolv.conf, full name", []string{"kubernetes.default.svc.cluster.local."}},
		{"through the pod's resolv.conf, search list", []string{"kubernetes.default"}},
		{"to the ClusterIP directly", []string{"kubernetes.default.svc.cluster.local.", "--server", nodecluster.KubeDNSServerIP}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r, err := cluster.Exec(ctx, "default", "dns-client", "client", append([]string{"/testclient", "resolve"}, tc.args...)...)
			require.NoError(t, err)
			require.Equal(t, 0, r.ExitCode, "stdout: %s\nstderr: %s", r.Stdout, r.Stderr)
			var got lookup
			require.NoError(t, json.Unmarshal([]byte(strings.TrimSpace(r.Stdout)), &got), r.Stdout)
			assert.Equal(t, []string{kubernetes.Spec.ClusterIP}, got.Addresses)
		})
	}

	t.Run("a name that does not exist is not found", func(t *testing.T) {
		r, err := cluster.Exec(ctx, "default", "dns-client", "client", "/testclient", "resolve", "nothing-here.default.svc.cluster.local.")
		require.NoError(t, err)
		assert.Equal(t, 1, r.ExitCode, r.Stdout)
		assert.Contains(t, r.Stdout, "no such host")
	})

	t.Run("kops validate cluster says the cluster is ready", func(t *testing.T) {
		r := flow.must(t, "kops", "validate", "cluster", "--wait=2m")
		assert.Contains(t, r.Stdout, "(DNS: built-in)")
		assert.Contains(t, r.Stdout, "Your cluster "+cluster.Name+" is ready\n")
		assert.NotContains(t, r.Stdout, "FAILED")
	})
}

// waitDeploymentAvailable waits until the Deployment's controller has seen its last change and
// all its replicas are updated and available: what a real Deployment controller and kubelet do,
// and what the API-server-only tests play by hand.
func waitDeploymentAvailable(t testing.TB, namespace, name string) {
	t.Helper()
	var last *appsv1.Deployment
	err := wait.PollUntilContextTimeout(context.Background(), 250*time.Millisecond, 3*time.Minute, true, func(ctx context.Context) (bool, error) {
		d, err := cluster.Clientset.AppsV1().Deployments(namespace).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return false, nil
		}
		last = d
		want := int32(1)
		if d.Spec.Replicas != nil {
			want = *d.Spec.Replicas
		}
		return d.Status.ObservedGeneration >= d.Generation && d.Status.UpdatedReplicas == want &&
			d.Status.AvailableReplicas == want && d.Status.Replicas == want, nil
	})
	if err != nil {
		pods, _ := cluster.Clientset.CoreV1().Pods(namespace).List(context.Background(), metav1.ListOptions{})
		var states []string
		for _, p := range pods.Items {
			states = append(states, p.Name+": "+string(p.Status.Phase)+" "+containerStates(p))
		}
		status := "never seen"
		if last != nil {
			status = fmt.Sprintf("%+v", last.Status)
		}
		require.NoError(t, err, "Deployment %s/%s not available: status %s\npods:\n%s", namespace, name, status, strings.Join(states, "\n"))
	}
}

func containerStates(p corev1.Pod) string {
	var out []string
	for _, s := range p.Status.ContainerStatuses {
		switch {
		case s.State.Waiting != nil:
			out = append(out, s.Name+" waiting "+s.State.Waiting.Reason+": "+s.State.Waiting.Message)
		case s.State.Terminated != nil:
			out = append(out, s.Name+" terminated "+s.State.Terminated.Reason)
		default:
			out = append(out, s.Name+" running")
		}
	}
	return strings.Join(out, ", ")
}
