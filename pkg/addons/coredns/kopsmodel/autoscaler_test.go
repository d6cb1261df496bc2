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

package kopsmodel

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"

	channelsapi "k8s.io/kops/channels/pkg/api"
	"k8s.io/kops/pkg/addons/coredns"
	"k8s.io/kops/pkg/apis/kops"
	"k8s.io/kops/pkg/operator/operatortest"
)

// scaleObject is the autoscaling/v1 Scale the API server admits for an update of a Deployment's
// scale subresource: its replica count is omitted when zero.
func scaleObject(namespace, name string, replicas int64) map[string]interface{} {
	spec := map[string]interface{}{}
	if replicas != 0 {
		spec["replicas"] = replicas
	}
	return map[string]interface{}{"apiVersion": "autoscaling/v1", "kind": "Scale",
		"metadata": map[string]interface{}{"name": name, "namespace": namespace}, "spec": spec}
}

// autoscalerPolicies are the autoscaler's policy and binding, compiled, with the binding.
func autoscalerPolicies(t *testing.T) (*operatortest.Policies, *admissionregistrationv1.ValidatingAdmissionPolicyBinding) {
	t.Helper()
	objects, err := Descriptor().ScalerPolicyObjects(Autoscaler())
	require.NoError(t, err)
	policies, err := operatortest.Compile(objects)
	require.NoError(t, err)
	var binding *admissionregistrationv1.ValidatingAdmissionPolicyBinding
	for _, o := range objects {
		if b, ok := o.(*admissionregistrationv1.ValidatingAdmissionPolicyBinding); ok {
			binding = b
		}
	}
	require.NotNil(t, binding)
	return policies, binding
}

// The autoscaler's policy admits exactly the replica counts the operator's exact policy admits
// for Deployment coredns, and those are the descriptor's ReplicaBounds: the autoscaler can set no
// count that locks the operator out, nor scale DNS down to nothing. Both sides are evaluated, not
// compared with a literal.
func TestAutoscalerBoundIsTheOperators(t *testing.T) {
	r := renderedScope(t, kops.ClusterSpec{})
	policies, _ := autoscalerPolicies(t)
	min, max := Descriptor().ReplicaBounds()
	require.GreaterOrEqual(t, max, min)

	counts := []int64{0, 100000, 1 << 31}
	for n := int64(0); n <= max+2; n++ {
		counts = append(counts, n)
	}
	admittedCounts := 0
	for _, n := range counts {
		dep := deploymentWithReplicas(t, r.objects["Deployment"], n)
		operatorAdmits := len(denials(t, r.scope, r.spec, writeOf("Deployment", dep))) == 0

		denied, err := policies.Denials(operatortest.Request{Operation: "UPDATE", Group: "apps", Resource: "deployments", SubResource: "scale",
			Namespace: coredns.WatchNamespace, Username: Autoscaler().Username(), Object: scaleObject(coredns.WatchNamespace, coredns.CoreDNSDeployment, n)})
		require.NoError(t, err)
		autoscalerAdmits := len(denied) == 0

		assert.Equal(t, operatorAdmits, autoscalerAdmits, "replicas %d: the operator's policy and the autoscaler's agree (autoscaler: %v)", n, denied)
		assert.Equal(t, n >= min && n <= max, autoscalerAdmits, "replicas %d: within ReplicaBounds [%d, %d]", n, min, max)
		if autoscalerAdmits {
			admittedCounts++
		}
	}
	assert.Equal(t, int(max-min+1), admittedCounts, "every count within the bounds, and only those")
}

func deploymentWithReplicas(t *testing.T, dep map[string]interface{}, replicas int64) map[string]interface{} {
	t.Helper()
	js, err := json.Marshal(dep)
	require.NoError(t, err)
	out := toCEL(t, js)
	out["spec"].(map[string]interface{})["replicas"] = replicas
	return out
}

// The autoscaler may write Deployment coredns alone, in kube-system, and its enforcement probe is
// a request its policy denies (a create the policy never saw would be admitted, and channels
// would wait for ever).
func TestAutoscalerPolicyConfinesItsWrites(t *testing.T) {
	policies, binding := autoscalerPolicies(t)
	as := Autoscaler().Username()
	scale := func(namespace, name string, n int64) operatortest.Request {
		return operatortest.Request{Operation: "UPDATE", Group: "apps", Resource: "deployments", SubResource: "scale",
			Namespace: namespace, Username: as, Object: scaleObject(namespace, name, n)}
	}
	probe, err := channelsapi.ParseEnforcementProbe(binding.Annotations[channelsapi.EnforcementProbeAnnotation])
	require.NoError(t, err)
	assert.Equal(t, as, probe.User, "the probe runs as the autoscaler")
	for name, c := range map[string]struct {
		request  operatortest.Request
		admitted bool
	}{
		"scale coredns to 2":               {scale(coredns.WatchNamespace, coredns.CoreDNSDeployment, 2), true},
		"scale another Deployment":         {scale(coredns.WatchNamespace, "coredns-autoscaler", 2), false},
		"scale coredns in another place":   {scale("default", coredns.CoreDNSDeployment, 2), false},
		"the enforcement probe's create":   {operatortest.Request{Operation: "CREATE", Group: "apps", Resource: "deployments", Namespace: coredns.WatchNamespace, Username: as, Object: probe.Object}, false},
		"Deployment coredns at 0 replicas": {operatortest.Request{Operation: "UPDATE", Group: "apps", Resource: "deployments", Namespace: coredns.WatchNamespace, Username: as, Object: map[string]interface{}{"metadata": map[string]interface{}{"name": coredns.CoreDNSDeployment}, "spec": map[string]interface{}{"replicas": int64(0)}}}, false},
	} {
		denied, err := policies.Denials(c.request)
		require.NoError(t, err)
		assert.Equal(t, c.admitted, len(denied) == 0, "%s: %v", name, denied)
	}

	objects, err := Descriptor().ScalerPolicyObjects(Autoscaler())
	require.NoError(t, err)
	policy := objects[0].(*admissionregistrationv1.ValidatingAdmissionPolicy)
	assert.Equal(t, policy.Name, binding.Spec.PolicyName)
	require.Len(t, policy.Spec.MatchConditions, 1)
	assert.Equal(t, `request.userInfo.username == "`+as+`"`, policy.Spec.MatchConditions[0].Expression, "the autoscaler's requests alone")
}

// A scaler must name a Deployment the operator manages: only those have a replica bound.
func TestScalerOfAnUnmanagedDeploymentIsRefused(t *testing.T) {
	s := Autoscaler()
	s.Deployment = "coredns-autoscaler"
	_, err := Descriptor().ScalerPolicyObjects(s)
	assert.ErrorContains(t, err, `"coredns-autoscaler" is not a Deployment the CoreDNS operator manages`)
}
