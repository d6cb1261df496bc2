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

package transition

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes"

	channelsapi "k8s.io/kops/channels/pkg/api"
	"k8s.io/kops/channels/pkg/apply"
	"k8s.io/kops/pkg/addons/coredns"
	corednsmodel "k8s.io/kops/pkg/addons/coredns/kopsmodel"
	"k8s.io/kops/tests/e2e/framework"
	"k8s.io/kops/tests/e2e/kopsenv"
)

// TestAutoscalerIsBoundedBesideTheOperator: with the operator, the autoscaler's own token cannot
// take Deployment coredns out of the replica bounds the operator's policy holds it to, neither
// down to none (DNS down) nor past the most (after which the operator's every write of its
// Deployment would be refused), through an update or a patch of the scale; within them it scales
// as before; and at the most it may set, the operator still writes its Deployment.
func TestAutoscalerIsBoundedBesideTheOperator(t *testing.T) {
	// A server of its own: the other tests switch modes on theirs.
	shared := env
	env = framework.Start(t)
	t.Cleanup(func() { env = shared })

	// Built in first, so that Deployment coredns exists (no operator runs here), then the flags on:
	// the operator's addons take it over, and the scaling addon brings the autoscaler's policy
	// (channels applies it only once the server denies its enforcement probe).
	s := kopsenv.NewStore(t, "minimal")
	run := kopsenv.Apply(t, env, s.Update(t, ""), s.Mem, true)
	require.NoError(t, run.Err, run.Output)
	run = kopsenv.Apply(t, env, s.Update(t, flagsOn), s.Mem, true)
	require.NoError(t, run.Err, run.Output)
	require.Equal(t, apply.Applied, run.Outcomes()[scalingAddon], run.Output)

	ctx := framework.Context(t)
	scaler := corednsmodel.Autoscaler()
	operator := corednsmodel.Descriptor()
	min, max := operator.ReplicaBounds()
	// The autoscaler's real token, as its pod would hold it: authenticated, not impersonated.
	cfg, err := env.TokenConfig(ctx, scaler.Namespace, scaler.ServiceAccount)
	require.NoError(t, err)
	as, err := kubernetes.NewForConfig(cfg)
	require.NoError(t, err)
	deployments := as.AppsV1().Deployments(coredns.WatchNamespace)

	update := func(n int64) error {
		scale, err := deployments.GetScale(ctx, coredns.CoreDNSDeployment, metav1.GetOptions{})
		require.NoError(t, err, "the autoscaler reads the count")
		scale.Spec.Replicas = int32(n)
		_, err = deployments.UpdateScale(ctx, coredns.CoreDNSDeployment, scale, metav1.UpdateOptions{})
		return err
	}
	patch := func(n int64) error {
		_, err := deployments.Patch(ctx, coredns.CoreDNSDeployment, types.MergePatchType,
			[]byte(fmt.Sprintf(`{"spec":{"replicas":%d}}`, n)), metav1.PatchOptions{}, "scale")
		return err
	}

	before := replicasOf(t)
	for _, n := range []int64{0, max + 1, 100000} {
		for how, write := range map[string]func(int64) error{"update": update, "patch": patch} {
			err := write(n)
			if !assert.Error(t, err, "%s the scale to %d: admitted", how, n) {
				continue
			}
			d, ok := channelsapi.AsPolicyDenial(err)
			assert.True(t, ok && d.Policy == scaler.PolicyName && d.Binding == scaler.PolicyName,
				"%s the scale to %d: denied by the autoscaler's policy %s, not %v", how, n, scaler.PolicyName, err)
			assert.Equal(t, before, replicasOf(t), "%s the scale to %d: the count is unchanged", how, n)
		}
	}

	for _, n := range []int64{min, max} {
		require.NoError(t, update(n), "the autoscaler scales coredns to %d", n)
		assert.Equal(t, int32(n), replicasOf(t))
	}
	require.NoError(t, patch(min+1), "the autoscaler patches the scale within the bounds")
	assert.Equal(t, int32(min+1), replicasOf(t))
	require.NoError(t, update(max))

	// At the most the autoscaler may set, the operator's write of its Deployment is admitted: the
	// operator is never locked out.
	opCfg, err := env.TokenConfig(ctx, operator.Namespace, operator.ServiceAccount)
	require.NoError(t, err)
	op, err := kubernetes.NewForConfig(opCfg)
	require.NoError(t, err)
	current, err := env.Clientset.AppsV1().Deployments(coredns.WatchNamespace).Get(ctx, coredns.CoreDNSDeployment, metav1.GetOptions{})
	require.NoError(t, err)
	require.Equal(t, int32(max), *current.Spec.Replicas)
	_, err = op.AppsV1().Deployments(coredns.WatchNamespace).Update(ctx, current.DeepCopy(), metav1.UpdateOptions{})
	require.NoError(t, err, "the operator writes Deployment coredns at %d replicas, the autoscaler's most", max)

	// What the bound prevents: one more (set here by the admin, whom no policy confines) and the
	// operator's very same write is refused by its own policy.
	_, err = env.Clientset.AppsV1().Deployments(coredns.WatchNamespace).Patch(ctx, coredns.CoreDNSDeployment, types.MergePatchType,
		[]byte(fmt.Sprintf(`{"spec":{"replicas":%d}}`, max+1)), metav1.PatchOptions{}, "scale")
	require.NoError(t, err)
	past, err := env.Clientset.AppsV1().Deployments(coredns.WatchNamespace).Get(ctx, coredns.CoreDNSDeployment, metav1.GetOptions{})
	require.NoError(t, err)
	_, err = op.AppsV1().Deployments(coredns.WatchNamespace).Update(ctx, past, metav1.UpdateOptions{DryRun: []string{metav1.DryRunAll}})
	d, ok := channelsapi.AsPolicyDenial(err)
	assert.True(t, ok && d.Policy == operator.ExactPolicyName(), "at %d replicas the operator is locked out by its exact policy: %v", max+1, err)
}
