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
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"k8s.io/kops/pkg/addons/coredns"
	"k8s.io/kops/pkg/addons/coredns/controller"
	"k8s.io/kops/pkg/operator/manager"
	"k8s.io/kops/tests/e2e/framework"
)

// deployedOptions are the operator's options as the binary would parse them from the arguments of
// the operator Deployment kops applied.
func deployedOptions(t *testing.T) controller.Options {
	d, err := env.Clientset.AppsV1().Deployments(coredns.Names().Namespace).Get(context.Background(), coredns.Names().DeploymentName, metav1.GetOptions{})
	require.NoError(t, err)
	require.NotEmpty(t, d.Spec.Template.Spec.Containers)
	cmd, err := controller.ParseFlags(d.Spec.Template.Spec.Containers[0].Args)
	require.NoError(t, err)
	return cmd.Options
}

// TestOperatorRendersTheClusterFacts takes over, with the operator, a cluster that customises
// spec.kubeDNS (resources, a toleration, affinity, a pod annotation, a registry mirror: golden case
// addon-operators-custom) and runs the built-in addon. With the facts kops put in its Deployment's
// arguments the operator takes the objects over in place (no new Deployment generation, no
// rollout) and converges without a single 403 under the admission policy derived from the
// cluster. Told nothing, it would roll CoreDNS out with a default cluster's resources.
func TestOperatorRendersTheClusterFacts(t *testing.T) {
	shared := env
	env = framework.Start(t)
	t.Cleanup(func() { env = shared })
	applyOperatorAddons(t, "addon-operators-custom", true)
	ctx := context.Background()
	before := deployment(t)
	require.True(t, resource.MustParse("1Gi").Equal(before.Spec.Template.Spec.Containers[0].Resources.Limits[corev1.ResourceMemory]), "the built-in addon runs the cluster's memory limit")

	t.Run("with the facts of its Deployment it takes over in place", func(t *testing.T) {
		counter := &statusCounter{}
		opts := deployedOptions(t)
		require.Equal(t, "1Gi", opts.Facts.MemoryLimit, "kops passed the cluster's facts")
		r := startOperatorWith(t, operatorConfig(t, counter), "informed", opts)
		eventually(t, "operator's field manager on Deployment coredns", func() string {
			if m := managers(deployment(t).ManagedFields); !slices.Contains(m, controller.FieldManager()) {
				return "managed by " + strings.Join(m, ", ")
			}
			return ""
		})
		rollOut(t)
		eventually(t, "status after the rollout", statusIs(t, manager.PhaseReady, true))

		d := deployment(t)
		assert.Equal(t, before.Generation, d.Generation, "no new generation: the operator renders what the built-in addon did")
		pod := d.Spec.Template
		require.Len(t, pod.Spec.Containers, 1)
		res := pod.Spec.Containers[0].Resources
		assert.True(t, resource.MustParse("250m").Equal(res.Requests[corev1.ResourceCPU]), "cpu request %s", res.Requests.Cpu())
		assert.True(t, resource.MustParse("96Mi").Equal(res.Requests[corev1.ResourceMemory]), "memory request %s", res.Requests.Memory())
		assert.True(t, resource.MustParse("1Gi").Equal(res.Limits[corev1.ResourceMemory]), "memory limit %s", res.Limits.Memory())
		assert.Contains(t, pod.Spec.Tolerations, corev1.Toleration{Key: "dedicated", Operator: corev1.TolerationOpEqual, Value: "dns", Effect: corev1.TaintEffectNoSchedule})
		require.NotNil(t, pod.Spec.Affinity)
		require.NotNil(t, pod.Spec.Affinity.NodeAffinity)
		assert.Len(t, pod.Spec.Affinity.NodeAffinity.PreferredDuringSchedulingIgnoredDuringExecution, 1)
		assert.Equal(t, "dns-team", pod.Annotations["example.com/owner"])
		assert.True(t, strings.HasPrefix(pod.Spec.Containers[0].Image, "registry.example.com/mirror/"), "image %s", pod.Spec.Containers[0].Image)
		svc, err := env.Clientset.CoreV1().Services("kube-system").Get(ctx, "kube-dns", metav1.GetOptions{})
		require.NoError(t, err)
		assert.Equal(t, "100.64.0.53", svc.Spec.ClusterIP)
		assert.Zero(t, counter.forbidden.Load(), "403 responses to the operator, out of %d", counter.total.Load())
		require.NoError(t, r.stop(t))
	})

	// Why kops passes them: the operator as it was before, told nothing of the cluster, would render
	// a default cluster's resources; the exact policy refuses that rendering, and DNS keeps running
	// as the cluster configured it.
	t.Run("without the facts its rendering is refused", func(t *testing.T) {
		startOperator(t, operatorConfig(t, &statusCounter{}), "uninformed")
		eventually(t, "status", statusIs(t, manager.PhaseDegraded, false))
		eventually(t, "the refusal", statusErrorHas(t, "may write Deployment coredns only as kops renders it: spec exactly as rendered"))
		limit := deployment(t).Spec.Template.Spec.Containers[0].Resources.Limits[corev1.ResourceMemory]
		assert.True(t, limit.Equal(resource.MustParse("1Gi")), "the cluster's memory limit stays: %s", limit.String())
		assert.Equal(t, before.Generation, deployment(t).Generation, "no rollout")
	})
	// The facts are the operator's arguments, not a right: the admission policy is derived by kops
	// from the cluster, so whoever rewrites them (to run CoreDNS on the control plane, say) gets a
	// refusal, not a wider Deployment.
	// The cluster's affinity is admitted exactly: a term the operator adds (pinning CoreDNS to the
	// control plane) is refused like a foreign toleration.
	t.Run("a node affinity of its own cannot get past the admission policy", func(t *testing.T) {
		opts := deployedOptions(t)
		require.NotNil(t, opts.Facts.Affinity, "the golden case sets kubeDNS.affinity")
		na := opts.Facts.Affinity.NodeAffinity.DeepCopy()
		na.RequiredDuringSchedulingIgnoredDuringExecution = &corev1.NodeSelector{NodeSelectorTerms: []corev1.NodeSelectorTerm{{
			MatchExpressions: []corev1.NodeSelectorRequirement{{Key: "node-role.kubernetes.io/control-plane", Operator: corev1.NodeSelectorOpExists}},
		}}}
		opts.Facts.Affinity = &corev1.Affinity{NodeAffinity: na}
		startOperatorWith(t, operatorConfig(t, &statusCounter{}), "tampered-affinity", opts)
		eventually(t, "status", statusIs(t, manager.PhaseDegraded, false))
		eventually(t, "the refusal", statusErrorHas(t, "may write Deployment coredns only as kops renders it: spec exactly as rendered"))
		got := deployment(t).Spec.Template.Spec.Affinity
		require.NotNil(t, got)
		assert.Nil(t, got.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution, "the hostile affinity never reached the Deployment")
	})

	t.Run("tampered facts cannot get past the admission policy", func(t *testing.T) {
		opts := deployedOptions(t)
		opts.Facts.Tolerations = append(opts.Facts.Tolerations, corev1.Toleration{Key: "node-role.kubernetes.io/control-plane", Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoSchedule})
		counter := &statusCounter{}
		startOperatorWith(t, operatorConfig(t, counter), "tampered", opts)
		eventually(t, "status", statusIs(t, manager.PhaseDegraded, false))
		eventually(t, "the refusal", statusErrorHas(t, "applying Deployment kube-system/coredns"))
		eventually(t, "the refusal", statusErrorHas(t, "may write Deployment coredns only as kops renders it: spec exactly as rendered"))
		for _, tol := range deployment(t).Spec.Template.Spec.Tolerations {
			assert.NotEqual(t, "node-role.kubernetes.io/control-plane", tol.Key, "the hostile toleration never reached the Deployment")
		}
	})
}

// statusErrorHas waits for the CoreDNS status to report an error containing want: a status a
// previous operator left (Degraded for another reason) does not count.
func statusErrorHas(t testing.TB, want string) func() string {
	return func() string {
		errs := strings.Join(coreDNS(t).Status.Errors, "\n")
		if !strings.Contains(errs, want) {
			return fmt.Sprintf("errors %q", errs)
		}
		return ""
	}
}
