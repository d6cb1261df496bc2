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
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"k8s.io/kops/pkg/addons/coredns"
)

// corefileQPS is the resolver pod's rate while the Corefile changes.
const corefileQPS = 25

// lookupTimeout is the resolver pod's time limit of each lookup (testclient dns --timeout).
const lookupTimeout = 2 * time.Second

// TestCorefileChangeServedInEveryMode proves, in each mode (built-in, ServerSide, ClientSide), that a
// Corefile change in the cluster spec (a stub domain added, then removed: `kops edit cluster`,
// `kops update cluster --yes`, `channels apply`) is served seconds after the apply, because the
// Corefile's checksum on the pod template rolls CoreDNS out; and that a client resolving 25 names
// a second (a cluster name, a stub-domain name, an upstream one) all the while loses no lookup. It
// logs the time from the apply to the first answer, and leaves CoreDNS built in.
func TestCorefileChangeServedInEveryMode(t *testing.T) {
	startStubDNS(t)
	flow := newKopsFlow(t, "")
	flow.withStubResolvers(t)
	t.Cleanup(func() { flow.switchTo(t, builtIn) })
	resolverPod(t, "corefile-served", corefileQPS, "kubernetes.default.svc.cluster.local.", stubName, upstreamName)

	for _, mode := range []dnsMode{builtIn, serverSide, clientSide} {
		t.Run(mode.name, func(t *testing.T) {
			flow.switchTo(t, mode)
			waitAnswer(t, "corefile-served", stubName, stubAddress)
			waitRolledOut(t)
			// Lookups sent before now (while the mode was set up: in a fresh cluster, before CoreDNS
			// existed) end within the client's timeout; only those sent from here on are counted.
			time.Sleep(lookupTimeout + 500*time.Millisecond)
			before := readReport(t, "corefile-served")
			template := podTemplateChecksum(t)

			fromEdit, fromApply := flow.corefileChangeTimed(t, "corefile-served")
			t.Logf("%s: the new stub domain answered %.1fs after channels apply (%.1fs after the edit)", mode.name, fromApply.Seconds(), fromEdit.Seconds())
			assert.NotEqual(t, template, podTemplateChecksum(t), "the Corefile change changed the pod template's checksum")
			waitRolledOut(t)
			flow.removeExtraDomain(t, "corefile-served")
			waitRolledOut(t)
			time.Sleep(3 * time.Second) // the old pods' lameduck and the last lookups past the rollout

			after := readReport(t, "corefile-served")
			lookups := after.Lookups - before.Lookups
			t.Logf("%s: %d lookups over both changes, %d failed; p99 %.1f ms, max %.1f ms (cumulative)", mode.name, lookups, after.Failed-before.Failed, after.P99, after.Max)
			if after.Failed > before.Failed {
				// When they failed tells why: at an old pod's end (routing, lameduck) or all along (a starved node).
				t.Logf("%s: the change began at %.1fs of the client's clock; failures (client's clock): %s", mode.name, before.Elapsed, failureTimes(t, "corefile-served", 0))
			}
			assert.Equal(t, 0, after.Failed-before.Failed, "failed lookups while the Corefile changed twice (last error: %s)", after.LastError)
			assert.Greater(t, float64(lookups), corefileQPS*(after.Elapsed-before.Elapsed)*0.8, "the client kept resolving at its rate")
		})
	}
}

// corefileChangeTimed adds extraDomain to spec.kubeDNS.stubDomains as corefileChangeServed does,
// and returns the time from the edit and from the end of channels apply to the first answer.
func (f *kopsFlow) corefileChangeTimed(t testing.TB, pod string) (fromEdit, fromApply time.Duration) {
	t.Helper()
	start := time.Now()
	f.setStubDomain(t, extraDomain, cluster.NodeIP+":"+itoa(stubDomainPort))
	f.updateAndApply(t)
	applied := time.Now()
	waitAnswer(t, pod, extraName, extraAddress)
	return time.Since(start), time.Since(applied)
}

// podTemplateChecksum is the Corefile checksum on Deployment coredns's pod template.
func podTemplateChecksum(t testing.TB) string {
	t.Helper()
	d, err := cluster.Clientset.AppsV1().Deployments("kube-system").Get(context.Background(), "coredns", metav1.GetOptions{})
	require.NoError(t, err)
	return d.Spec.Template.Annotations[coredns.CorefileChecksumAnnotation]
}

// waitRolledOut waits until Deployment coredns has rolled out its latest pod template: every
// replica updated and available, and no old one left.
func waitRolledOut(t testing.TB) {
	t.Helper()
	require.Eventually(t, func() bool {
		d, err := cluster.Clientset.AppsV1().Deployments("kube-system").Get(context.Background(), "coredns", metav1.GetOptions{})
		if err != nil || d.Status.ObservedGeneration < d.Generation {
			return false
		}
		want := int32(1)
		if d.Spec.Replicas != nil {
			want = *d.Spec.Replicas
		}
		s := d.Status
		return s.UpdatedReplicas == want && s.AvailableReplicas == want && s.Replicas == want
	}, 3*time.Minute, 250*time.Millisecond, "Deployment coredns did not roll out: pods %s", coreDNSPods(t))
}
