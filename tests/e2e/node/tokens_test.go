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
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"

	"k8s.io/kops/tests/e2e/nodecluster"
)

// tokenDir is where kubelet mounts a pod's service account token.
const tokenDir = "/var/run/secrets/kubernetes.io/serviceaccount"

// tokenMounted says whether kubelet mounted a service account token into the container, as the
// kernel sees the container's process: a mount at tokenDir in its mount namespace.
func tokenMounted(t testing.TB, status corev1.ContainerStatus) bool {
	t.Helper()
	pid := containerProcess(t, status)
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/mountinfo", pid))
	require.NoError(t, err)
	for _, line := range strings.Split(string(data), "\n") {
		if f := strings.Fields(line); len(f) > 4 && f[4] == tokenDir {
			return true
		}
	}
	return false
}

// tokenVolume says whether the admitted pod spec carries a projected service account token (what
// the ServiceAccount admission adds where automount is on).
func tokenVolume(p *corev1.Pod) bool {
	for _, v := range p.Spec.Volumes {
		if v.Projected == nil {
			continue
		}
		for _, s := range v.Projected.Sources {
			if s.ServiceAccountToken != nil {
				return true
			}
		}
	}
	return false
}

// podOf returns the running pod of a workload by label, waiting for it.
func podOf(t testing.TB, namespace, selector string) *corev1.Pod {
	t.Helper()
	var found *corev1.Pod
	require.NoError(t, wait.PollUntilContextTimeout(context.Background(), 250*time.Millisecond, 2*time.Minute, true, func(ctx context.Context) (bool, error) {
		pods, err := cluster.Clientset.CoreV1().Pods(namespace).List(ctx, metav1.ListOptions{LabelSelector: selector})
		if err != nil {
			return false, nil
		}
		for i, p := range pods.Items {
			if p.DeletionTimestamp == nil {
				found = &pods.Items[i]
				return true, nil
			}
		}
		return false, nil
	}), "no pod %s in %s", selector, namespace)
	return found
}

// TestServiceAccountTokens proves on real pods that kubelet mounts no token into a pod under a
// default ServiceAccount (kube-system's always, default's with automountDefault: false), nor into
// a pod that names CoreDNS's own ServiceAccount without opting in; that CoreDNS's pod, which opts
// in, gets its token; and that kube2iam's pod spec, as admitted, carries one (its image cannot
// run offline). A pod under an account that allows tokens gets one, so the check can fail.
func TestServiceAccountTokens(t *testing.T) {
	ctx := context.Background()
	flow := newKopsFlow(t, "")
	flow.editCluster(t, func(doc map[string]any) {
		doc["spec"].(map[string]any)["serviceAccountTokens"] = map[string]any{"automountDefault": false}
	})
	flow.updateAndApply(t)
	waitDeploymentAvailable(t, "kube-system", "coredns")

	// A pod as a user writes it: no automountServiceAccountToken, so the account decides.
	userPod := func(namespace, name, account string) *corev1.Pod {
		p := nodecluster.TestClientPod(namespace, name)
		p.Spec.AutomountServiceAccountToken = nil
		p.Spec.ServiceAccountName = account
		return p
	}
	_, err := cluster.Clientset.CoreV1().ServiceAccounts("default").Create(ctx, &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Name: "token-allowed"}}, metav1.CreateOptions{})
	if !apierrors.IsAlreadyExists(err) {
		require.NoError(t, err)
	}
	t.Cleanup(func() {
		_ = cluster.Clientset.CoreV1().ServiceAccounts("default").Delete(context.Background(), "token-allowed", metav1.DeleteOptions{})
	})

	for _, tc := range []struct {
		name string
		pod  *corev1.Pod
		want bool
	}{
		{"default's default account", userPod("default", "token-default", ""), false},
		{"kube-system's default account", userPod("kube-system", "token-kube-system", ""), false},
		{"CoreDNS's account without opting in", userPod("kube-system", "token-coredns-account", "coredns"), false},
		{"an account that allows tokens", userPod("default", "token-allowed", "token-allowed"), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := cluster.RunPod(ctx, tc.pod)
			require.NoError(t, err)
			t.Cleanup(func() { assert.NoError(t, cluster.DeletePod(context.Background(), tc.pod.Namespace, tc.pod.Name)) })
			assert.Equal(t, tc.want, tokenVolume(p), "a token volume in the admitted spec")
			assert.Equal(t, tc.want, tokenMounted(t, p.Status.ContainerStatuses[0]), "a token mounted in the container")
		})
	}

	t.Run("CoreDNS gets its token", func(t *testing.T) {
		p := podOf(t, "kube-system", "k8s-app=kube-dns")
		require.NotNil(t, p.Spec.AutomountServiceAccountToken)
		assert.True(t, *p.Spec.AutomountServiceAccountToken, "CoreDNS's pod opts in")
		sa, err := cluster.Clientset.CoreV1().ServiceAccounts("kube-system").Get(ctx, p.Spec.ServiceAccountName, metav1.GetOptions{})
		require.NoError(t, err)
		require.NotNil(t, sa.AutomountServiceAccountToken)
		assert.False(t, *sa.AutomountServiceAccountToken, "its account does not hand tokens out by itself")
		assert.True(t, tokenVolume(p))
		var status *corev1.ContainerStatus
		for i := range p.Status.ContainerStatuses {
			if p.Status.ContainerStatuses[i].Name == "coredns" {
				status = &p.Status.ContainerStatuses[i]
			}
		}
		require.NotNil(t, status, "CoreDNS's container status")
		assert.True(t, tokenMounted(t, *status), "CoreDNS's container has its token")
	})

	t.Run("kube2iam's admitted pod carries its token", func(t *testing.T) {
		flow.editCluster(t, func(doc map[string]any) { setMetadataMode(doc, "Forward") })
		flow.updateAndApply(t)
		t.Cleanup(func() {
			flow.editCluster(t, func(doc map[string]any) { setMetadataMode(doc, "Block") })
			flow.updateAndApply(t)
		})
		p := podOf(t, "kube-system", "k8s-app=kube2iam")
		require.NotNil(t, p.Spec.AutomountServiceAccountToken)
		assert.True(t, *p.Spec.AutomountServiceAccountToken, "kube2iam's pod opts in")
		assert.True(t, tokenVolume(p), "the admitted spec mounts kube2iam's token")
		sa, err := cluster.Clientset.CoreV1().ServiceAccounts("kube-system").Get(ctx, p.Spec.ServiceAccountName, metav1.GetOptions{})
		require.NoError(t, err)
		require.NotNil(t, sa.AutomountServiceAccountToken)
		assert.False(t, *sa.AutomountServiceAccountToken, "its account does not hand tokens out by itself")
	})
}
