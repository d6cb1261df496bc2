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
	"fmt"
	"net/http"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"

	channelsapi "k8s.io/kops/channels/pkg/api"
	"k8s.io/kops/pkg/model/addons"
	"k8s.io/kops/pkg/operator"
	"k8s.io/kops/pkg/operator/manager"
	"k8s.io/kops/tests/e2e/framework"
	"k8s.io/kops/tests/e2e/kopsenv"
)

// registryCase is the golden case whose cluster runs every operator of the registry server-side.
const registryCase = "metrics-server-operator"

// TestRegistryOperatorsUnderTheirOwnTokens runs every operator of the registry as the binary
// `make images` builds, with the arguments kops rendered into its Deployment, under a token of its
// own ServiceAccount: only the rights kops generated, the exact admission policy, on a cluster
// kops's channels populated. Each brings its custom resource to healthy (the test plays the
// Deployment controller, which the test server does not run, as TestOperatorUnderItsOwnToken
// does), no request of it is refused, every managed object carries its writes, and the
// prerequisites its addon needs were written by kops's channels, never by it.
func TestRegistryOperatorsUnderTheirOwnTokens(t *testing.T) {
	shared := env
	env = framework.Start(t)
	t.Cleanup(func() { env = shared })
	applyOperatorAddons(t, registryCase, false)
	for _, o := range addons.Operators() {
		t.Run(o.Descriptor.Subject, func(t *testing.T) { runRegistryOperator(t, o) })
	}
}

func runRegistryOperator(t *testing.T, o *addons.Operator) {
	d := o.Descriptor
	client, err := dynamic.NewForConfig(env.Config)
	require.NoError(t, err)
	resource := client.Resource(schema.GroupVersionResource{Group: d.CRD.Group, Version: d.CRD.Version, Resource: d.CRD.Resource}).Namespace(d.WatchNamespace)

	// The arguments kops deploys the operator with (its facts, for CoreDNS), then the test's own:
	// a free probe port, a kubeconfig with the token, responses logged.
	deployed, err := env.Clientset.AppsV1().Deployments(d.Namespace).Get(framework.Context(t), d.DeploymentName, metav1.GetOptions{})
	require.NoError(t, err, "channels applied the operator's Deployment")
	require.Len(t, deployed.Spec.Template.Spec.Containers, 1)
	probe := freeAddress(t)
	args := append(append([]string(nil), deployed.Spec.Template.Spec.Containers[0].Args...),
		"--health-probe-bind-address="+probe, "--leader-election-identity=e2e", "-v=6")
	cmd, stderr, exited := startOperatorBinary(t, &d.Descriptor, kopsenv.Build(t, o.Binary), args...)

	status := func() (*operator.Status, int64, string) {
		u, err := resource.Get(framework.Context(t), d.Instructions, metav1.GetOptions{})
		if err != nil {
			return nil, 0, err.Error()
		}
		raw, ok := u.Object["status"].(map[string]any)
		if !ok {
			return nil, u.GetGeneration(), "no status"
		}
		var st operator.Status
		require.NoError(t, runtime.DefaultUnstructuredConverter.FromUnstructured(raw, &st))
		return &st, u.GetGeneration(), ""
	}
	phaseIs := func(phase string, healthy bool) func() string {
		return func() string {
			st, generation, problem := status()
			switch {
			case problem != "":
				return problem
			case st.ObservedGeneration != generation:
				return fmt.Sprintf("observedGeneration %d, generation %d", st.ObservedGeneration, generation)
			case st.Phase != phase || st.Healthy != healthy:
				return fmt.Sprintf("phase %q healthy %v errors %q", st.Phase, st.Healthy, st.Errors)
			}
			return ""
		}
	}
	eventually(t, "/readyz", func() string {
		resp, err := http.Get("http://" + probe + "/readyz")
		if err != nil {
			return err.Error()
		}
		defer func() { _ = resp.Body.Close() }()
		if resp.StatusCode != http.StatusOK {
			return resp.Status
		}
		return ""
	})
	eventually(t, "status before the rollout", phaseIs(manager.PhaseProgressing, false))
	for _, m := range d.Managed {
		if m.Kind == "Deployment" {
			kopsenv.SetDeploymentStatus(t, env, d.WatchNamespace, m.Name, ptrTo(true))
		}
	}
	eventually(t, "status after the rollout", phaseIs(manager.PhaseReady, true))

	require.NoError(t, cmd.Process.Signal(syscall.SIGTERM))
	select {
	case err := <-exited:
		require.NoError(t, err, "exit status after SIGTERM; stderr:\n%s", stderr.String())
	case <-time.After(15 * time.Second):
		t.Fatalf("still running 15s after SIGTERM; stderr:\n%s", stderr.String())
	}
	logs := stderr.String()
	responses := strings.Count(logs, `"Response" `)
	assert.NotZero(t, responses, "client-go logs its responses at -v=6")
	// 403: a right kops did not grant; 422: a write the admission policy refused.
	for _, refused := range []string{`status="403`, `status="422`} {
		assert.Zero(t, strings.Count(logs, refused), "%s responses in the operator's log:\n%s", refused, logs)
	}
	t.Logf("%s: %d responses, none refused", d.DeploymentName, responses)

	// Every managed object carries the operator's writes: the policy admitted them.
	for _, m := range d.Managed {
		gvr, ok := operator.ManagedResource(m.Kind)
		require.True(t, ok, m.Kind)
		u, err := client.Resource(gvr).Namespace(d.WatchNamespace).Get(framework.Context(t), m.Name, metav1.GetOptions{})
		require.NoError(t, err, "%s %s", m.Kind, m.Name)
		assert.Contains(t, managers(u.GetManagedFields()), d.DeploymentName, "%s %s: written by the operator", m.Kind, m.Name)
	}

	// The prerequisites are kops's: labelled as their addon's, written by channels, never by the
	// operator (which holds no right on them).
	objects, err := d.PrerequisiteObjects()
	require.NoError(t, err)
	for _, p := range objects {
		want := &unstructured.Unstructured{Object: p}
		gvk := want.GroupVersionKind()
		gvr := gvk.GroupVersion().WithResource(strings.ToLower(gvk.Kind) + "s")
		var ri dynamic.ResourceInterface = client.Resource(gvr)
		if want.GetNamespace() != "" {
			ri = client.Resource(gvr).Namespace(want.GetNamespace())
		}
		got, err := ri.Get(framework.Context(t), want.GetName(), metav1.GetOptions{})
		key := gvk.Kind + "/" + want.GetName()
		require.NoError(t, err, "%s: written before the operator ran", key)
		assert.Equal(t, d.PrerequisitesAddon(), got.GetLabels()[channelsapi.LabelAddonName], key)
		assert.NotContains(t, managers(got.GetManagedFields()), d.DeploymentName, key)
		assert.Contains(t, managers(got.GetManagedFields()), "kops-channels", key)
	}
}

func ptrTo[T any](v T) *T { return &v }
