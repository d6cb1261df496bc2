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

package channels

import (
	"context"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/util/flowcontrol"

	channelsapi "k8s.io/kops/channels/pkg/api"
	"k8s.io/kops/channels/pkg/apply"
	"k8s.io/kops/tests/e2e/framework"
	"k8s.io/kops/tests/e2e/kopsenv"
	"k8s.io/kops/util/pkg/vfs"
)

// What the server answered one request of the operator.
type answer string

const (
	noRights      answer = "refused by RBAC"
	policyDenied  answer = "denied by the admission policy"
	admitted      answer = "admitted"
	otherResponse answer = "other"
)

// windowProbe asks, as the operator, to create (dry run) a ConfigMap the operator may create by
// RBAC once its RoleBinding exists but that the admission policy denies: it is not CoreDNS's.
func windowProbe(t *testing.T) func(ctx context.Context) (answer, error) {
	cfg := env.ServiceAccountConfig("coredns-operator-system", "coredns-operator")
	cfg.RateLimiter = flowcontrol.NewFakeAlwaysRateLimiter()
	dyn, err := dynamic.NewForConfig(cfg)
	require.NoError(t, err)
	configMaps := dyn.Resource(schema.GroupVersionResource{Version: "v1", Resource: "configmaps"}).Namespace("kube-system")
	obj := &unstructured.Unstructured{Object: map[string]interface{}{
		"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]interface{}{"name": "window-probe", "namespace": "kube-system"},
	}}
	return func(ctx context.Context) (answer, error) {
		_, err := configMaps.Create(ctx, obj.DeepCopy(), metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}})
		switch {
		case err == nil:
			return admitted, nil
		case deniedByScope(err):
			return policyDenied, nil
		case apierrors.IsForbidden(err) && strings.Contains(err.Error(), "cannot create resource"):
			return noRights, nil
		}
		return otherResponse, err
	}
}

func deniedByScope(err error) bool {
	d, ok := channelsapi.AsPolicyDenial(err)
	return ok && d.Policy == "coredns-operator-scope"
}

// During a cold apply of the operator channel, no request of the operator that the policy covers
// is admitted: the policy and its binding are applied, and proven enforced, before the RoleBinding
// that gives the operator its rights. Before, the RoleBinding came first and the policy was
// enforced only some hundred milliseconds after it was applied.
func TestNoWindowBeforeThePolicyIsEnforced(t *testing.T) {
	s := kopsenv.NewStore(t, "addon-operators")
	location := s.Update(t, "ClusterAddons,UseAddonOperators")
	(&channelCLI{objects: kopsenv.ManifestObjects(t, location, s.Mem)}).reset(t)
	probe := windowProbe(t)
	first, err := probe(framework.Context(t))
	require.NoError(t, err)
	require.Equal(t, noRights, first, "a cold start: the operator holds no rights yet")

	ctx, stop := context.WithCancel(framework.Context(t))
	answers := map[answer]int{}
	var denied atomic.Int64 // policy denials so far, read while the poller runs
	var others []string
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for ctx.Err() == nil {
			a, err := probe(ctx)
			if ctx.Err() != nil {
				return
			}
			answers[a]++
			if a == policyDenied {
				denied.Add(1)
			}
			if err != nil && len(others) < 5 {
				others = append(others, err.Error())
			}
		}
	}()
	run := kopsenv.Apply(t, env, location, s.Mem, true)
	// Tries go on once everything is applied, until one is denied by the policy (the rights are
	// bound, the policy must hold), at most 10 s on a slow machine.
	for deadline := time.Now().Add(10 * time.Second); denied.Load() == 0 && time.Now().Before(deadline); {
		time.Sleep(5 * time.Millisecond)
	}
	stop()
	wg.Wait()
	require.NoError(t, run.Err, run.Output)
	t.Logf("the operator's requests during the apply: %v", answers)
	assert.Zero(t, answers[admitted], "no request of the operator is admitted while the channel is applied")
	assert.Positive(t, answers[policyDenied], "the operator got its rights during the test, and the policy denied it")
	assert.Empty(t, others)
}

// A policy binding that is never enforced (here: the policy admits everything) fails its addon
// after EnforceTimeout with the policy's name, and nothing after the binding is applied.
func TestEnforcementProbeTimesOut(t *testing.T) {
	const ns = "e2e-probe"
	createNamespace(t, ns)
	mem := &vfs.MemFS{}
	policy := `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: e2e-lenient
spec:
  failurePolicy: Fail
  matchConstraints:
    resourceRules:
    - {apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [configmaps]}
  validations:
  - expression: "true"
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata:
  name: e2e-lenient
  annotations:
    channels.kops.k8s.io/enforcement-probe: '{"user":"system:serviceaccount:e2e-probe:x","object":{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"p","namespace":"e2e-probe"}}}'
spec:
  policyName: e2e-lenient
  validationActions: [Deny]
---
` + configMap(ns, "after-the-policy", "lenient")
	location := testChannel(t, mem, "lenient", ns, [][2]string{{"lenient", policy}}, nil)
	ch, err := apply.ReadChannel(location, vfs.NewContext(mem))
	require.NoError(t, err)
	applier, err := apply.New(env.Config, apply.Options{Yes: true, EnforceTimeout: 300 * time.Millisecond})
	require.NoError(t, err)
	start := time.Now()
	_, err = applier.Apply(framework.Context(t), ch)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "admission policy e2e-lenient (binding e2e-lenient) is not enforced after 300ms: a dry-run create of ConfigMap e2e-probe/p as system:serviceaccount:e2e-probe:x was admitted, not denied by it")
	assert.Less(t, time.Since(start), 10*time.Second, "the wait is bounded")
	_, err = env.Clientset.CoreV1().ConfigMaps(ns).Get(framework.Context(t), "after-the-policy", metav1.GetOptions{})
	assert.True(t, apierrors.IsNotFound(err), "nothing after the binding was applied: %v", err)

	// The run's context ends the wait too.
	ctx, cancel := context.WithTimeout(framework.Context(t), 100*time.Millisecond)
	defer cancel()
	applier, err = apply.New(env.Config, apply.Options{Yes: true})
	require.NoError(t, err)
	_, err = applier.Apply(ctx, ch)
	require.Error(t, err)
	assert.NotContains(t, err.Error(), "is not enforced after")
}
