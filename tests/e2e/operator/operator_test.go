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

package operator

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"k8s.io/kops/channels/pkg/apply"
	"k8s.io/kops/tests/e2e/framework"
)

var corednsResource = schema.GroupVersionResource{Group: "addons.x-k8s.io", Version: "v1alpha1", Resource: "corednses"}

// Listed in the worst order, the addons still apply: the CoreDNS object waits for its CRD.
func TestOperatorAddonsApplyInAnyOrder(t *testing.T) {
	run := setup(t)
	require.NoError(t, run.Err, run.Output)
	assert.Equal(t, map[string]apply.Outcome{
		"serviceaccount-defaults.addons.k8s.io": apply.Applied,
		"coredns-rbac.addons.k8s.io":            apply.Applied,
		"coredns-scaling.addons.k8s.io":         apply.Applied,
		"operator.coredns.addons.x-k8s.io":      apply.Applied,
		"coredns.addons.x-k8s.io":               apply.Applied,
	}, run.Outcomes())
	position := map[string]int{}
	for i, r := range run.Results {
		position[r.Name] = i
	}
	assert.Less(t, position["operator.coredns.addons.x-k8s.io"], position["coredns.addons.x-k8s.io"], "the operator's CRD goes before the object that needs it")
}

func TestCRDEstablishedAndSchemaEnforced(t *testing.T) {
	setup(t)
	crd := &apiextensionsv1.CustomResourceDefinition{}
	require.NoError(t, env.Client.Get(framework.Context(t), client.ObjectKey{Name: "corednses.addons.x-k8s.io"}, crd))
	established := false
	for _, c := range crd.Status.Conditions {
		established = established || (c.Type == apiextensionsv1.Established && c.Status == apiextensionsv1.ConditionTrue)
	}
	assert.True(t, established)

	dyn, err := dynamic.NewForConfig(env.Config)
	require.NoError(t, err)
	cr, err := dyn.Resource(corednsResource).Namespace("kube-system").Get(framework.Context(t), "coredns", metav1.GetOptions{})
	require.NoError(t, err, "the CoreDNS object passed the schema and exists")
	ip, _, _ := unstructured.NestedString(cr.Object, "spec", "dnsIP")
	domain, _, _ := unstructured.NestedString(cr.Object, "spec", "dnsDomain")
	assert.Equal(t, "100.64.0.10", ip)
	assert.Equal(t, "cluster.local", domain)

	invalid := &unstructured.Unstructured{Object: map[string]interface{}{
		"apiVersion": "addons.x-k8s.io/v1alpha1", "kind": "CoreDNS",
		"metadata": map[string]interface{}{"name": "invalid", "namespace": "kube-system"},
		"spec":     map[string]interface{}{"dnsIP": int64(5)},
	}}
	_, err = dyn.Resource(corednsResource).Namespace("kube-system").Create(framework.Context(t), invalid, metav1.CreateOptions{})
	require.Error(t, err)
	assert.True(t, apierrors.IsInvalid(err), "a number for dnsIP is rejected by the schema: %v", err)
}
