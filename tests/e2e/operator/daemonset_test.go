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
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/yaml"

	channelsapi "k8s.io/kops/channels/pkg/api"
	"k8s.io/kops/pkg/kubemanifest"
	kopsoperator "k8s.io/kops/pkg/operator"
	"k8s.io/kops/pkg/operator/operatortest"
	"k8s.io/kops/tests/e2e/framework"
)

// A throwaway operator that manages a DaemonSet (operatortest.NodeLocalDNS, shaped like a
// node-local-dns operator), confined by the Roles and admission policies kops generates from its
// descriptor, on the real API server: as its identity it may write exactly the DaemonSet its
// renderer gives, and nothing else.

// nodeLocalDNSRow is the throwaway DaemonSet operator in the attacker's table.
func nodeLocalDNSRow() confinedOperator {
	return confinedOperator{name: "node-local-dns (throwaway DaemonSet)", descriptor: operatortest.NodeLocalDNS, deploy: daemonSetOperator}
}

// daemonSetOperator applies, once, everything kops would for the throwaway operator.
func daemonSetOperator(t *testing.T) map[string]map[string]interface{} {
	return deployOperator(t, operatorSetup{descriptor: operatortest.NodeLocalDNS(), instructions: operatortest.NodeLocalDNSInstructions(),
		manifest: operatortest.NodeLocalDNSManifest(), scope: operatortest.NodeLocalDNSScope})
}

func waitEstablished(t *testing.T, name string) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		crd := &apiextensionsv1.CustomResourceDefinition{}
		require.NoError(t, env.Client.Get(framework.Context(t), client.ObjectKey{Name: name}, crd))
		for _, c := range crd.Status.Conditions {
			if c.Type == apiextensionsv1.Established && c.Status == apiextensionsv1.ConditionTrue {
				return
			}
		}
		require.True(t, time.Now().Before(deadline), "CRD %s not established after 30 s", name)
		time.Sleep(50 * time.Millisecond)
	}
}

// waitPoliciesEnforced waits, boundedly, until the server enforces both policies (they
// take effect a moment after they are stored), with the probes their bindings carry, as channels
// runs them: each probe, a dry-run create as the operator (with system:masters, so that RBAC lets
// it reach admission), must be denied by its own binding. The exact policy's probe is its first managed object
// with a label kops never renders. Until the server's admission has discovered the new CRD, the
// exact policy refuses everything it matches for want of its params' kind ("failed to configure
// policy", without naming the binding): closed, but not yet the policy under test.
func waitPoliciesEnforced(t *testing.T, policies []runtime.Object) {
	t.Helper()
	ctx := framework.Context(t)
	type probe struct {
		denial channelsapi.PolicyDenial
		client dynamic.ResourceInterface
		object *unstructured.Unstructured
	}
	var probes []probe
	for _, o := range policies {
		binding, ok := o.(*admissionregistrationv1.ValidatingAdmissionPolicyBinding)
		if !ok {
			continue
		}
		p, err := channelsapi.ParseEnforcementProbe(binding.Annotations[channelsapi.EnforcementProbeAnnotation])
		require.NoError(t, err)
		dyn, err := dynamic.NewForConfig(env.Impersonate(p.User, "system:masters"))
		require.NoError(t, err)
		u := &unstructured.Unstructured{Object: p.Object}
		gvr, ok := kopsoperator.ManagedResource(u.GetKind())
		require.True(t, ok, "the probe of %s is a managed kind: %s", binding.Name, u.GetKind())
		probes = append(probes, probe{
			denial: channelsapi.PolicyDenial{Policy: binding.Spec.PolicyName, Binding: binding.Name},
			client: dyn.Resource(gvr).Namespace(u.GetNamespace()), object: u})
	}
	require.Len(t, probes, 2, "the scope and the exact policy's bindings")
	start := time.Now()
	deadline := start.Add(time.Minute)
	for _, p := range probes {
		for {
			_, err := p.client.Create(ctx, p.object.DeepCopy(), metav1.CreateOptions{DryRun: dryRun})
			if d, ok := channelsapi.AsPolicyDenial(err); ok && d == p.denial {
				break
			}
			require.True(t, time.Now().Before(deadline), "not enforced a minute after it was applied (%s): %v", p.denial, err)
			time.Sleep(50 * time.Millisecond)
		}
	}
	t.Logf("the policies are enforced %s after they were applied", time.Since(start).Round(time.Millisecond))
}

var daemonSets = mustResource("DaemonSet")

// mustResource is a managed kind's resource from the kinds table.
func mustResource(kind string) schema.GroupVersionResource {
	gvr, ok := kopsoperator.ManagedResource(kind)
	if !ok {
		panic(kind + " is not a managed kind")
	}
	return gvr
}

// asDaemonSetOperator is a clientset whose requests run as the throwaway operator's service account.
func asDaemonSetOperator(t *testing.T) (kubernetes.Interface, dynamic.Interface) {
	return asOperatorOf(t, operatortest.NodeLocalDNS())
}

// renderedDaemonSet is the DaemonSet the throwaway renderer gives, as decoded JSON.
func renderedDaemonSet(t *testing.T) map[string]interface{} {
	t.Helper()
	objs, err := kubemanifest.DecodeStrict(operatortest.NodeLocalDNSManifest())
	require.NoError(t, err)
	for _, o := range objs {
		if o.Kind == "DaemonSet" {
			u := map[string]interface{}{}
			require.NoError(t, yaml.Unmarshal(o.Raw, &u))
			return u
		}
	}
	t.Fatal("no DaemonSet rendered")
	return nil
}

// currentDaemonSet is the DaemonSet as the server holds it, put back as rendered first.
func currentDaemonSet(t *testing.T) map[string]interface{} {
	t.Helper()
	ctx := framework.Context(t)
	admin, err := dynamic.NewForConfig(env.Config)
	require.NoError(t, err)
	current, err := admin.Resource(daemonSets).Namespace("kube-system").Get(ctx, "node-local-dns", metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		current, err = admin.Resource(daemonSets).Namespace("kube-system").Create(ctx, &unstructured.Unstructured{Object: renderedDaemonSet(t)}, metav1.CreateOptions{})
	}
	require.NoError(t, err)
	return current.Object
}

// The exact match compares what the server holds after defaulting with the rendering: the
// rendering is exactly what the server stores.
func TestDaemonSetRenderingIsWhatTheServerStores(t *testing.T) {
	daemonSetOperator(t)
	stored := currentDaemonSet(t)
	got := stripServer(stored)
	delete(got, "status")
	delete(got["metadata"].(map[string]interface{})["annotations"].(map[string]interface{}), "deprecated.daemonset.template.generation")
	if len(got["metadata"].(map[string]interface{})["annotations"].(map[string]interface{})) == 0 {
		delete(got["metadata"].(map[string]interface{}), "annotations")
	}
	want, err := json.Marshal(renderedDaemonSet(t))
	require.NoError(t, err)
	have, err := json.Marshal(got)
	require.NoError(t, err)
	assert.JSONEq(t, string(want), string(have), "every field the server defaults is rendered")
}

// As the operator: the DaemonSet kops renders is admitted, created (without kops's channels'
// label, which is channels' to set), updated and patched.
func TestDaemonSetOperatorWritesTheRendering(t *testing.T) {
	daemonSetOperator(t)
	ctx := framework.Context(t)
	_, operatorDyn := asDaemonSetOperator(t)
	admin, err := dynamic.NewForConfig(env.Config)
	require.NoError(t, err)

	require.NoError(t, ignoreNotFound(admin.Resource(daemonSets).Namespace("kube-system").Delete(ctx, "node-local-dns", metav1.DeleteOptions{})))
	waitGone(t, func() error {
		_, err := admin.Resource(daemonSets).Namespace("kube-system").Get(ctx, "node-local-dns", metav1.GetOptions{})
		return err
	})
	fresh := renderedDaemonSet(t)
	unstructured.RemoveNestedField(fresh, "metadata", "labels", "addon.kops.k8s.io/name")
	_, err = operatorDyn.Resource(daemonSets).Namespace("kube-system").Create(ctx, &unstructured.Unstructured{Object: fresh}, metav1.CreateOptions{FieldManager: "node-local-dns-operator"})
	require.NoError(t, err, "the operator creates the DaemonSet kops renders")

	current := currentDaemonSet(t)
	_, err = operatorDyn.Resource(daemonSets).Namespace("kube-system").Update(ctx, &unstructured.Unstructured{Object: current}, metav1.UpdateOptions{FieldManager: "node-local-dns-operator"})
	assert.NoError(t, err, "the operator updates it as rendered")
	image, _, _ := unstructured.NestedSlice(current, "spec", "template", "spec", "containers")
	patch := fmt.Sprintf(`{"spec":{"template":{"spec":{"containers":[{"name":"node-cache","image":%q}]}}}}`, image[0].(map[string]interface{})["image"])
	_, err = operatorDyn.Resource(daemonSets).Namespace("kube-system").Patch(ctx, "node-local-dns", types.StrategicMergePatchType, []byte(patch), metav1.PatchOptions{FieldManager: "node-local-dns-operator"})
	assert.NoError(t, err, "and patches it to what it is")
	_, err = operatorDyn.Resource(daemonSets).Namespace("kube-system").Apply(ctx, "node-local-dns", &unstructured.Unstructured{Object: withoutServerFields(current)},
		metav1.ApplyOptions{FieldManager: "node-local-dns-operator", Force: true, DryRun: dryRun})
	assert.NoError(t, err, "and applies it server-side")
}

// withoutServerFields is an object without what only the server writes, for an apply.
func withoutServerFields(obj map[string]interface{}) map[string]interface{} {
	out := stripServer(obj)
	delete(out, "status")
	return out
}

// Any other DaemonSet is refused: another name in kube-system by the scope policy (RBAC cannot
// limit a create by name), another DaemonSet's update and any delete by RBAC, any other namespace
// by RBAC.
func TestDaemonSetOperatorOtherDaemonSetsDenied(t *testing.T) {
	daemonSetOperator(t)
	ctx := framework.Context(t)
	operator, operatorDyn := asDaemonSetOperator(t)
	d := operatortest.NodeLocalDNS()

	renamed := renderedDaemonSet(t)
	unstructured.RemoveNestedField(renamed, "metadata", "labels", "addon.kops.k8s.io/name")
	renamed["metadata"].(map[string]interface{})["name"] = "e2e-node-agent"
	_, err := operatorDyn.Resource(daemonSets).Namespace("kube-system").Create(ctx, &unstructured.Unstructured{Object: renamed}, metav1.CreateOptions{DryRun: dryRun})
	assertPolicyDenied(t, err, d.PolicyName, "the rendered DaemonSet under another name")
	assert.Contains(t, err.Error(), "may only create or change DaemonSet node-local-dns")

	other := daemonSet("kube-system", "e2e-kube-proxy-lookalike")
	_, err = env.Clientset.AppsV1().DaemonSets("kube-system").Create(ctx, other, metav1.CreateOptions{})
	if !apierrors.IsAlreadyExists(err) {
		require.NoError(t, err)
	}
	_, err = operator.AppsV1().DaemonSets("kube-system").Patch(ctx, other.Name, types.MergePatchType,
		[]byte(`{"spec":{"template":{"spec":{"hostNetwork":true}}}}`), metav1.PatchOptions{DryRun: dryRun})
	assertForbidden(t, err, "patch another DaemonSet in kube-system")
	err = operator.AppsV1().DaemonSets("kube-system").Delete(ctx, "node-local-dns", metav1.DeleteOptions{DryRun: dryRun})
	assertForbidden(t, err, "delete DaemonSet node-local-dns")
	elsewhere := renderedDaemonSet(t)
	elsewhere["metadata"].(map[string]interface{})["namespace"] = "default"
	_, err = operatorDyn.Resource(daemonSets).Namespace("default").Create(ctx, &unstructured.Unstructured{Object: elsewhere}, metav1.CreateOptions{DryRun: dryRun})
	assertForbidden(t, err, "create the DaemonSet in another namespace")

	// The admin is not confined: the policies match the operator's requests only.
	_, err = env.Clientset.AppsV1().DaemonSets("kube-system").Patch(ctx, other.Name, types.MergePatchType,
		[]byte(`{"metadata":{"labels":{"e2e-admin":"yes"}}}`), metav1.PatchOptions{DryRun: dryRun})
	assert.NoError(t, err, "the admin patches another DaemonSet")
}

func daemonSet(namespace, name string) *appsv1.DaemonSet {
	labels := map[string]string{"k8s-app": name}
	return &appsv1.DaemonSet{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: namespace},
		Spec: appsv1.DaemonSetSpec{
			Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "registry.k8s.io/kube-proxy:v1.35.4"}}},
			},
		},
	}
}

// The throwaway operator's rights, as the server's authorizer sees them: its DaemonSet by name,
// in kube-system only, and no delete.
func TestDaemonSetOperatorRights(t *testing.T) {
	daemonSetOperator(t)
	d := operatortest.NodeLocalDNS()
	who := saIdentity("node-local-dns-operator", d.Namespace, d.ServiceAccount)
	for _, row := range []access{
		{who, "update", "apps", "daemonsets", "", "kube-system", "node-local-dns", true},
		{who, "patch", "apps", "daemonsets", "", "kube-system", "node-local-dns", true},
		{who, "get", "apps", "daemonsets", "", "kube-system", "node-local-dns", true},
		{who, "create", "apps", "daemonsets", "", "kube-system", "", true}, // by name: the scope policy
		{who, "update", "apps", "daemonsets", "", "kube-system", "kube-proxy", false},
		{who, "patch", "apps", "daemonsets", "", "kube-system", "kube-proxy", false},
		{who, "delete", "apps", "daemonsets", "", "kube-system", "node-local-dns", false},
		{who, "list", "apps", "daemonsets", "", "kube-system", "", false},
		{who, "update", "apps", "daemonsets", "status", "kube-system", "node-local-dns", false},
		{who, "create", "apps", "daemonsets", "", "default", "", false},
		{who, "patch", "apps", "daemonsets", "", "default", "node-local-dns", false},
		{who, "create", "apps", "deployments", "", "kube-system", "", false},
		{who, "create", "", "pods", "", "kube-system", "", false},
		{who, "get", "", "secrets", "", "kube-system", "", false},
		{who, "update", "addons.x-k8s.io", "nodelocaldnses", "", "kube-system", "node-local-dns", false},
		{who, "update", "admissionregistration.k8s.io", "validatingadmissionpolicies", "", "", d.ExactPolicyName(), false},
		{who, "delete", "admissionregistration.k8s.io", "validatingadmissionpolicybindings", "", "", d.PolicyName, false},
	} {
		t.Run(row.String(), func(t *testing.T) {
			allowed, reason, err := env.SubjectAccessReview(row.who.user, row.who.groups, row.verb, row.group, row.resource, row.subresource, row.namespace, row.name)
			require.NoError(t, err)
			assert.Equal(t, row.allowed, allowed, "reason: %s", reason)
		})
	}
}
