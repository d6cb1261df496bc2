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
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"k8s.io/kops/pkg/addons/coredns/controller"
	"k8s.io/kops/pkg/operator/manager"
	"k8s.io/kops/tests/e2e/framework"
)

type objectIdentity struct {
	uid        types.UID
	generation int64
	clusterIP  string
}

func builtInIdentities(t *testing.T) map[string]objectIdentity {
	ctx := context.Background()
	d, err := env.Clientset.AppsV1().Deployments("kube-system").Get(ctx, "coredns", metav1.GetOptions{})
	require.NoError(t, err)
	svc, err := env.Clientset.CoreV1().Services("kube-system").Get(ctx, "kube-dns", metav1.GetOptions{})
	require.NoError(t, err)
	cm, err := env.Clientset.CoreV1().ConfigMaps("kube-system").Get(ctx, "coredns", metav1.GetOptions{})
	require.NoError(t, err)
	return map[string]objectIdentity{
		"Deployment": {d.UID, d.Generation, ""},
		"Service":    {svc.UID, svc.Generation, svc.Spec.ClusterIP},
		"ConfigMap":  {cm.UID, cm.Generation, ""},
	}
}

func managers(fields []metav1.ManagedFieldsEntry) []string {
	var out []string
	for _, f := range fields {
		out = append(out, f.Manager)
	}
	return out
}

// TestTakesOverTheBuiltInAddon turns the operator on for a cluster that runs the built-in addon:
// the operator applies over the same objects (same UIDs, the Service's cluster IP, and the
// Deployment's generation: no rollout) and becomes a manager of each.
func TestTakesOverTheBuiltInAddon(t *testing.T) {
	// A server of its own: this test needs the built-in addon's objects, the other an empty
	// kube-system. The helpers read the package's env.
	shared := env
	env = framework.Start(t)
	t.Cleanup(func() { env = shared })

	applyOperatorAddons(t, "addon-operators", true)
	before := builtInIdentities(t)
	counter := &statusCounter{}
	startOperator(t, operatorConfig(t, counter), "replica-a")

	eventually(t, "operator's field manager on every object", func() string {
		ctx := context.Background()
		d, err := env.Clientset.AppsV1().Deployments("kube-system").Get(ctx, "coredns", metav1.GetOptions{})
		require.NoError(t, err)
		svc, err := env.Clientset.CoreV1().Services("kube-system").Get(ctx, "kube-dns", metav1.GetOptions{})
		require.NoError(t, err)
		cm, err := env.Clientset.CoreV1().ConfigMaps("kube-system").Get(ctx, "coredns", metav1.GetOptions{})
		require.NoError(t, err)
		for kind, m := range map[string][]string{"Deployment": managers(d.ManagedFields), "Service": managers(svc.ManagedFields), "ConfigMap": managers(cm.ManagedFields)} {
			if !slices.Contains(m, controller.FieldManager()) {
				return kind + " managed by " + strings.Join(m, ", ")
			}
		}
		return ""
	})
	rollOut(t)
	eventually(t, "status", statusIs(t, manager.PhaseReady, true))
	for _, name := range []string{"ConfigMap kube-system/coredns", "Service kube-system/kube-dns", "Deployment kube-system/coredns"} {
		eventually(t, "Adopted "+name, hasEvent(t, "kube-system", "CoreDNS", "coredns", corev1.EventTypeNormal, manager.ReasonAdopted, "Took over "+name+" from kops-channels"))
	}
	after := builtInIdentities(t)
	assert.Equal(t, before, after, "same objects, same cluster IP, and no new Deployment generation")
	assert.Zero(t, counter.forbidden.Load(), "403 responses to the operator, out of %d", counter.total.Load())
}
