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

package operatorrun

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"k8s.io/kops/pkg/addons/coredns"
	corednsmodel "k8s.io/kops/pkg/addons/coredns/kopsmodel"
	"k8s.io/kops/pkg/operator/manager"
)

// TestOperatorUnderItsOwnToken runs the operator from an empty kube-system through spec changes,
// drift and a restart, under its own token and the admission policy, and counts its 403s.
func TestOperatorUnderItsOwnToken(t *testing.T) {
	applyOperatorAddons(t, "addon-operators", false)
	counter := &statusCounter{}
	cfg := operatorConfig(t, counter)
	ctx := context.Background()
	spec := coreDNS(t).Spec

	_, err := env.Clientset.AppsV1().Deployments("kube-system").Get(ctx, "coredns", metav1.GetOptions{})
	require.True(t, apierrors.IsNotFound(err), "no Deployment coredns before the operator runs: %v", err)
	first := startOperator(t, cfg, "replica-a")
	var second *running

	t.Run("creates the objects from empty", func(t *testing.T) {
		eventually(t, "status before the rollout", statusIs(t, manager.PhaseProgressing, false))
		d := deployment(t)
		require.Len(t, d.Spec.Template.Spec.Containers, 1)
		assert.Equal(t, spec.Image, d.Spec.Template.Spec.Containers[0].Image)
		svc, err := env.Clientset.CoreV1().Services("kube-system").Get(ctx, "kube-dns", metav1.GetOptions{})
		require.NoError(t, err)
		assert.Equal(t, spec.DNSIP, svc.Spec.ClusterIP)
		cm, err := env.Clientset.CoreV1().ConfigMaps("kube-system").Get(ctx, "coredns", metav1.GetOptions{})
		require.NoError(t, err)
		assert.Equal(t, spec.Corefile, cm.Data["Corefile"])
	})

	t.Run("reports the Deployment's health", func(t *testing.T) {
		rollOut(t)
		eventually(t, "status after the rollout", statusIs(t, manager.PhaseReady, true))
		st := coreDNS(t).Status
		assert.True(t, meta.IsStatusConditionTrue(st.Conditions, manager.ConditionAvailable))
		assert.True(t, meta.IsStatusConditionFalse(st.Conditions, manager.ConditionProgressing))
		assert.True(t, meta.IsStatusConditionFalse(st.Conditions, manager.ConditionDegraded))
	})

	// The operator applies only what changed: a label an admin adds to ConfigMap coredns (a field
	// the operator does not own) makes it apply that ConfigMap again, and nothing else.
	t.Run("a foreign change to one object re-applies that object only", func(t *testing.T) {
		before := counter.applies.Load()
		cm, err := env.Clientset.CoreV1().ConfigMaps("kube-system").Get(ctx, "coredns", metav1.GetOptions{})
		require.NoError(t, err)
		cm.Labels["example.com/admin-note"] = "seen"
		_, err = env.Clientset.CoreV1().ConfigMaps("kube-system").Update(ctx, cm, metav1.UpdateOptions{})
		require.NoError(t, err)
		eventually(t, "the ConfigMap applied again", func() string {
			if n := counter.applies.Load() - before; n < 1 {
				return fmt.Sprintf("%d applies", n)
			}
			return ""
		})
		time.Sleep(300 * time.Millisecond) // room for any further apply this change would cause
		assert.Equal(t, int64(1), counter.applies.Load()-before, "one apply: the ConfigMap; the others did not change")
	})

	t.Run("converges after a Corefile change", func(t *testing.T) {
		corefile := strings.Replace(spec.Corefile, "cache 30", "cache 60", 1)
		require.NotEqual(t, spec.Corefile, corefile, "the Corefile has a cache directive to change")
		patchSpec(t, corefileSpec(corefile))
		eventually(t, "ConfigMap coredns", func() string {
			cm, err := env.Clientset.CoreV1().ConfigMaps("kube-system").Get(ctx, "coredns", metav1.GetOptions{})
			if err != nil {
				return err.Error()
			}
			if cm.Data["Corefile"] != corefile {
				return "the old Corefile"
			}
			return ""
		})
		// The new checksum on the pod template rolls CoreDNS out; the status is Ready once it has.
		eventually(t, "Deployment coredns rolled for the Corefile", func() string {
			if got := deployment(t).Spec.Template.Annotations[coredns.CorefileChecksumAnnotation]; got != coredns.CorefileChecksum(corefile) {
				return "pod template checksum " + got
			}
			return ""
		})
		rollOut(t)
		eventually(t, "status", statusIs(t, manager.PhaseReady, true))
	})

	t.Run("puts the Deployment back after an admin edits it", func(t *testing.T) {
		d := deployment(t)
		d.Spec.Template.Spec.Containers[0].Args = []string{"-conf", "/etc/elsewhere"}
		_, err := env.Clientset.AppsV1().Deployments("kube-system").Update(ctx, d, metav1.UpdateOptions{})
		require.NoError(t, err)
		eventually(t, "Deployment coredns args", func() string {
			args := deployment(t).Spec.Template.Spec.Containers[0].Args
			if len(args) > 0 && args[len(args)-1] == "/etc/elsewhere" {
				return fmt.Sprintf("args %q", args)
			}
			return ""
		})
		eventually(t, "status while the repair rolls out", statusIs(t, manager.PhaseProgressing, false))
		rollOut(t)
		eventually(t, "status", statusIs(t, manager.PhaseReady, true))
	})

	t.Run("refuses to move the Service's cluster IP and says why", func(t *testing.T) {
		patchSpec(t, map[string]any{"dnsIP": "100.64.0.53"})
		eventually(t, "status", statusIs(t, manager.PhaseDegraded, false))
		st := coreDNS(t).Status
		require.NotEmpty(t, st.Errors)
		assert.Contains(t, st.Errors[0], `spec.dnsIP "100.64.0.53" differs from the clusterIP "`+spec.DNSIP+`" of Service kube-system/kube-dns`)
		assert.True(t, meta.IsStatusConditionTrue(st.Conditions, manager.ConditionDegraded))
		svc, err := env.Clientset.CoreV1().Services("kube-system").Get(ctx, "kube-dns", metav1.GetOptions{})
		require.NoError(t, err)
		assert.Equal(t, spec.DNSIP, svc.Spec.ClusterIP)
		patchSpec(t, map[string]any{"dnsIP": spec.DNSIP})
		eventually(t, "status", statusIs(t, manager.PhaseReady, true))
	})

	// The image is a hole of the exact policy, bound to the CoreDNS object: whoever may write the
	// object (kops) chooses it, and the operator rolls out exactly that image.
	t.Run("rolls out the image the CoreDNS object names", func(t *testing.T) {
		patchSpec(t, map[string]any{"version": "1.12.5", "image": "registry.k8s.io/coredns/coredns:v1.12.5"})
		eventually(t, "Deployment coredns image", func() string {
			if image := deployment(t).Spec.Template.Spec.Containers[0].Image; image != "registry.k8s.io/coredns/coredns:v1.12.5" {
				return image
			}
			return ""
		})
		patchSpec(t, map[string]any{"version": spec.Version, "image": spec.Image})
		eventually(t, "Deployment coredns image back", func() string {
			if image := deployment(t).Spec.Template.Spec.Containers[0].Image; image != spec.Image {
				return image
			}
			return ""
		})
		rollOut(t)
		eventually(t, "status", statusIs(t, manager.PhaseReady, true))
	})

	t.Run("a second replica takes the lease over after a restart", func(t *testing.T) {
		require.NoError(t, first.stop(t), "a stopped operator returns nil")
		second = startOperator(t, cfg, "replica-b")
		eventually(t, "lease holder", func() string {
			lease, err := env.Clientset.CoordinationV1().Leases(coredns.Names().Namespace).Get(ctx, coredns.Names().LeaseName, metav1.GetOptions{})
			if err != nil {
				return err.Error()
			}
			if lease.Spec.HolderIdentity == nil || *lease.Spec.HolderIdentity != "replica-b" {
				return fmt.Sprintf("holder %v", lease.Spec.HolderIdentity)
			}
			return ""
		})
		patchSpec(t, corefileSpec(spec.Corefile))
		eventually(t, "ConfigMap coredns", func() string {
			cm, err := env.Clientset.CoreV1().ConfigMaps("kube-system").Get(ctx, "coredns", metav1.GetOptions{})
			if err != nil {
				return err.Error()
			}
			if cm.Data["Corefile"] != spec.Corefile {
				return "the Corefile before the restart"
			}
			return ""
		})
	})

	// What `kubectl describe coredns` shows, recorded under the operator's own token (so the 403
	// count below includes its events).
	t.Run("records events on the CoreDNS object and its lease", func(t *testing.T) {
		eventually(t, "Applied", hasEvent(t, "kube-system", "CoreDNS", "coredns", corev1.EventTypeNormal, manager.ReasonApplied, "ConfigMap kube-system/coredns"))
		eventually(t, "ApplyFailed", hasEvent(t, "kube-system", "CoreDNS", "coredns", corev1.EventTypeWarning, manager.ReasonApplyFailed, "differs from the clusterIP"))
		// The refusal was retried with backoff: the recorder counts repeats by patching its
		// event, which the admission policy allows for the operator's own events.
		eventually(t, "a repeated ApplyFailed", func() string {
			for _, e := range eventsAbout(t, "kube-system", "CoreDNS", "coredns") {
				if e.Reason == manager.ReasonApplyFailed && e.Count > 1 {
					return ""
				}
			}
			return "no ApplyFailed event counted more than once"
		})
		eventually(t, "LeaderElection", hasEvent(t, coredns.Names().Namespace, "Lease", coredns.Names().LeaseName, corev1.EventTypeNormal, "LeaderElection", "replica-b"))
	})

	assert.Zero(t, counter.forbidden.Load(), "403 responses to the operator, out of %d", counter.total.Load())
	t.Logf("the operator made %d requests, %d refused with 403", counter.total.Load(), counter.forbidden.Load())

	// The table is necessary, not only sufficient: without the right to patch ConfigMap coredns
	// the operator cannot apply a Corefile change, and says so on the status.
	t.Run("without one right of the table the status names the refusal", func(t *testing.T) {
		require.NoError(t, second.stop(t))
		removed := corednsmodel.Right{Namespace: "kube-system", Resources: []string{"configmaps"}, Verbs: []string{"update", "patch"}, ResourceNames: []string{"coredns"}}
		restore := removeRule(t, removed)
		defer restore()
		patchSpec(t, corefileSpec(spec.Corefile+"# changed without the right\n"))
		limited := &statusCounter{}
		startOperator(t, operatorConfig(t, limited), "replica-c")
		eventually(t, "status", statusIs(t, manager.PhaseDegraded, false))
		st := coreDNS(t).Status
		require.NotEmpty(t, st.Errors)
		assert.Contains(t, st.Errors[0], `applying ConfigMap kube-system/coredns: configmaps "coredns" is forbidden: User "system:serviceaccount:coredns-operator-system:coredns-operator" cannot patch resource "configmaps"`)
		assert.True(t, meta.IsStatusConditionTrue(st.Conditions, manager.ConditionDegraded))
		assert.NotZero(t, limited.forbidden.Load())
	})
}

// removeRule deletes the rule of right from the operator's Role in right.Namespace as the admin,
// and returns what puts it back.
func removeRule(t *testing.T, right corednsmodel.Right) func() {
	ctx := context.Background()
	roles := env.Clientset.RbacV1().Roles(right.Namespace)
	role, err := roles.Get(ctx, coredns.Names().RBACName, metav1.GetOptions{})
	require.NoError(t, err)
	original := role.DeepCopy()
	want := right.PolicyRule()
	kept := role.Rules[:0]
	for _, r := range role.Rules {
		if equality.Semantic.DeepEqual(r, want) {
			continue
		}
		kept = append(kept, r)
	}
	require.Len(t, kept, len(original.Rules)-1, "the Role has the rule %+v", want)
	role.Rules = kept
	_, err = roles.Update(ctx, role, metav1.UpdateOptions{})
	require.NoError(t, err)
	return func() {
		current, err := roles.Get(ctx, coredns.Names().RBACName, metav1.GetOptions{})
		require.NoError(t, err)
		current.Rules = original.Rules
		_, err = roles.Update(ctx, current, metav1.UpdateOptions{})
		require.NoError(t, err)
	}
}
