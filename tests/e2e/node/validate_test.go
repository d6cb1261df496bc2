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
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/util/retry"
)

// breakDeployment changes a running Deployment so that its pods are replaced by ones that never
// become ready (Recreate, so the old pod goes first, as a user's bad rollout with that strategy
// does), and waits until the Deployment says it is not available. It puts the spec back, and waits
// until it is available again, when the test ends.
func breakDeployment(t *testing.T, namespace, name string, breakPod func(*corev1.PodSpec)) {
	t.Helper()
	ctx := context.Background()
	deployments := cluster.Clientset.AppsV1().Deployments(namespace)
	original, err := deployments.Get(ctx, name, metav1.GetOptions{})
	require.NoError(t, err)
	update := func(change func(*appsv1.Deployment)) {
		require.NoError(t, retry.RetryOnConflict(retry.DefaultRetry, func() error {
			d, err := deployments.Get(ctx, name, metav1.GetOptions{})
			if err != nil {
				return err
			}
			change(d)
			_, err = deployments.Update(ctx, d, metav1.UpdateOptions{})
			return err
		}))
	}
	t.Cleanup(func() {
		update(func(d *appsv1.Deployment) { d.Spec = original.Spec })
		waitDeploymentAvailable(t, namespace, name)
	})
	update(func(d *appsv1.Deployment) {
		d.Spec.Strategy = appsv1.DeploymentStrategy{Type: appsv1.RecreateDeploymentStrategyType}
		breakPod(&d.Spec.Template.Spec)
	})
	require.NoError(t, wait.PollUntilContextTimeout(ctx, 250*time.Millisecond, 2*time.Minute, true, func(ctx context.Context) (bool, error) {
		d, err := deployments.Get(ctx, name, metav1.GetOptions{})
		if err != nil || d.Status.ObservedGeneration < d.Generation {
			return false, nil
		}
		for _, c := range d.Status.Conditions {
			if c.Type == appsv1.DeploymentAvailable {
				return c.Status == corev1.ConditionFalse, nil
			}
		}
		return false, nil
	}), "Deployment %s/%s did not become unavailable", namespace, name)
}

// assertValidateNames runs kops validate cluster and requires it to fail naming the object.
func (f *kopsFlow) assertValidateNames(t *testing.T, object string) {
	t.Helper()
	r := f.run(t, "kops", "validate", "cluster")
	assert.NotEqual(t, 0, r.Code, "validate fails: %s", r.Stdout)
	out := r.Stdout + r.Stderr
	var named []string
	for _, line := range strings.Split(out, "\n") {
		if strings.Contains(line, object) {
			named = append(named, line)
		}
	}
	assert.NotEmpty(t, named, "validate names %s:\n%s", object, out)
	t.Logf("kops validate cluster exited %d: %s", r.Code, strings.Join(named, "\n"))
	assert.Contains(t, strings.Join(named, "\n"), "not available", "and says what is wrong with it:\n%s", out)
	assert.NotContains(t, out, "is ready")
}

// TestValidateNamesBrokenCoreDNSAndOperator proves that `kops validate cluster` passes on the
// healthy cluster and fails, naming the object, when CoreDNS's pods cannot become ready (built
// in) and when the operator's pod cannot start (ServerSide, an image no node has).
func TestValidateNamesBrokenCoreDNSAndOperator(t *testing.T) {
	flow := newKopsFlow(t, "")
	flow.switchTo(t, builtIn)
	flow.must(t, "kops", "validate", "cluster", "--wait=2m")

	t.Run("CoreDNS never ready", func(t *testing.T) {
		breakDeployment(t, "kube-system", "coredns", func(p *corev1.PodSpec) {
			for i := range p.Containers {
				if p.Containers[i].Name == "coredns" {
					p.Containers[i].ReadinessProbe = &corev1.Probe{
						ProbeHandler:  corev1.ProbeHandler{HTTPGet: &corev1.HTTPGetAction{Path: "/nothing", Port: intstr.FromInt32(1)}},
						PeriodSeconds: 1,
					}
				}
			}
		})
		flow.assertValidateNames(t, "kube-system/coredns")
	})

	t.Run("the operator cannot start", func(t *testing.T) {
		flow.switchTo(t, serverSide)
		t.Cleanup(func() { flow.switchTo(t, builtIn) })
		flow.must(t, "kops", "validate", "cluster", "--wait=2m")
		breakDeployment(t, "coredns-operator-system", "coredns-operator", func(p *corev1.PodSpec) {
			p.Containers[0].Image = "kops.local/node/no-such-image:v1"
		})
		flow.assertValidateNames(t, "coredns-operator-system/coredns-operator")
	})
	flow.must(t, "kops", "validate", "cluster", "--wait=2m")
}
