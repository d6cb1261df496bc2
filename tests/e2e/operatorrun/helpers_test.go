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
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/dynamic"

	"k8s.io/kops/pkg/addons/coredns"
	"k8s.io/kops/tests/e2e/framework"
)

var corednsGVR = schema.GroupVersionResource{Group: coredns.CRDGroup, Version: "v1alpha1", Resource: coredns.CRDResource}

// coreDNS reads the CoreDNS object as the admin.
func coreDNS(t testing.TB) *coredns.CoreDNS {
	client, err := dynamic.NewForConfig(env.Config)
	require.NoError(t, err)
	u, err := client.Resource(corednsGVR).Namespace(coredns.WatchNamespace).Get(framework.Context(t), coredns.CoreDNSResource, metav1.GetOptions{})
	require.NoError(t, err)
	var obj coredns.CoreDNS
	require.NoError(t, runtime.DefaultUnstructuredConverter.FromUnstructured(u.Object, &obj))
	return &obj
}

// patchSpec merges spec into the CoreDNS object's spec as the admin (kops would, through channels).
func patchSpec(t testing.TB, spec map[string]any) {
	client, err := dynamic.NewForConfig(env.Config)
	require.NoError(t, err)
	body, err := json.Marshal(map[string]any{"spec": spec})
	require.NoError(t, err)
	_, err = client.Resource(corednsGVR).Namespace(coredns.WatchNamespace).Patch(framework.Context(t), coredns.CoreDNSResource, types.MergePatchType, body, metav1.PatchOptions{})
	require.NoError(t, err)
}

func deployment(t testing.TB) *appsv1.Deployment {
	d, err := env.Clientset.AppsV1().Deployments(coredns.WatchNamespace).Get(framework.Context(t), coredns.CoreDNSDeployment, metav1.GetOptions{})
	require.NoError(t, err)
	return d
}

// rollOut plays the Deployment controller, which the test server does not run: it reports the
// current generation rolled out to every replica and available.
func rollOut(t testing.TB) {
	require.NoError(t, tryRollOut(t))
}

// tryRollOut is rollOut for a loop that retries: a write that raced with the operator's is an error.
func tryRollOut(t testing.TB) error {
	d := deployment(t)
	replicas := int32(1)
	if d.Spec.Replicas != nil {
		replicas = *d.Spec.Replicas
	}
	d.Status = appsv1.DeploymentStatus{
		ObservedGeneration: d.Generation, Replicas: replicas, UpdatedReplicas: replicas,
		ReadyReplicas: replicas, AvailableReplicas: replicas,
		Conditions: []appsv1.DeploymentCondition{
			{Type: appsv1.DeploymentAvailable, Status: corev1.ConditionTrue, Reason: "MinimumReplicasAvailable"},
			{Type: appsv1.DeploymentProgressing, Status: corev1.ConditionTrue, Reason: "NewReplicaSetAvailable"},
		},
	}
	_, err := env.Clientset.AppsV1().Deployments(d.Namespace).UpdateStatus(framework.Context(t), d, metav1.UpdateOptions{})
	return err
}

// eventually waits until check returns "" (what is still wrong otherwise), failing with the last
// answer after 20 s.
func eventually(t testing.TB, what string, check func() string) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	last := ""
	for time.Now().Before(deadline) {
		if last = check(); last == "" {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("%s: still %s after 20s", what, last)
}

// statusIs checks the CoreDNS object's status describes its current generation with phase.
func statusIs(t testing.TB, phase string, healthy bool) func() string {
	return func() string {
		obj := coreDNS(t)
		st := obj.Status
		switch {
		case st == nil:
			return "no status"
		case st.ObservedGeneration != obj.Generation:
			return fmt.Sprintf("observedGeneration %d, generation %d", st.ObservedGeneration, obj.Generation)
		case st.Phase != phase || st.Healthy != healthy:
			return fmt.Sprintf("phase %q healthy %v errors %q", st.Phase, st.Healthy, st.Errors)
		}
		return ""
	}
}

// clearStatus removes the CoreDNS object's status as the admin.
func clearStatus(t testing.TB) {
	client, err := dynamic.NewForConfig(env.Config)
	require.NoError(t, err)
	resource := client.Resource(corednsGVR).Namespace(coredns.WatchNamespace)
	u, err := resource.Get(framework.Context(t), coredns.CoreDNSResource, metav1.GetOptions{})
	require.NoError(t, err)
	delete(u.Object, "status")
	_, err = resource.UpdateStatus(framework.Context(t), u, metav1.UpdateOptions{})
	require.NoError(t, err)
	require.Nil(t, coreDNS(t).Status)
}
