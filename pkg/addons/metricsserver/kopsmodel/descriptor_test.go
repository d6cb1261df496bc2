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
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/component-helpers/auth/rbac/validation"

	"k8s.io/kops/pkg/addons/metricsserver"
	"k8s.io/kops/pkg/kubemanifest"
	"k8s.io/kops/pkg/operator/confine"
)

var spec = metricsserver.Spec{Version: metricsserver.DefaultVersion, Image: metricsserver.DefaultImage, Insecure: true}

// roles returns the generated Roles by namespace, failing on anything but Roles and RoleBindings
// bound to the operator.
func roles(t *testing.T) map[string]*rbacv1.Role {
	t.Helper()
	out := map[string]*rbacv1.Role{}
	for _, obj := range Descriptor().RBACObjects() {
		switch o := obj.(type) {
		case *rbacv1.Role:
			require.NotContains(t, out, o.Namespace)
			out[o.Namespace] = o
		case *rbacv1.RoleBinding:
			assert.Equal(t, rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "Role", Name: metricsserver.Names().RBACName}, o.RoleRef)
			assert.Equal(t, []rbacv1.Subject{{Kind: "ServiceAccount", Name: metricsserver.Names().ServiceAccount, Namespace: metricsserver.Names().Namespace}}, o.Subjects)
		default:
			t.Fatalf("unexpected %T: no cluster-scoped rights", obj)
		}
	}
	return out
}

func TestDescriptorIsValid(t *testing.T) {
	require.NoError(t, Descriptor().Validate())
	r := roles(t)
	assert.ElementsMatch(t, []string{metricsserver.WatchNamespace, metricsserver.Names().Namespace}, keysOf(r))
}

// What the operator needs, and a list of what an attacker holding its token would want: the roles
// grant the first and none of the second.
func TestRightsAreTheLeastThatWork(t *testing.T) {
	r := roles(t)
	ms := []string{metricsserver.Name}
	needs := map[string][]rbacv1.PolicyRule{
		metricsserver.WatchNamespace: {
			{APIGroups: []string{"apps"}, Resources: []string{"deployments"}, Verbs: []string{"get", "list", "watch", "update", "patch"}, ResourceNames: ms},
			{APIGroups: []string{""}, Resources: []string{"services", "serviceaccounts"}, Verbs: []string{"get", "list", "watch", "update", "patch"}, ResourceNames: ms},
			{APIGroups: []string{"apps"}, Resources: []string{"deployments"}, Verbs: []string{"create"}},
			{APIGroups: []string{""}, Resources: []string{"services", "serviceaccounts"}, Verbs: []string{"create"}},
			{APIGroups: []string{metricsserver.CRDGroup}, Resources: []string{metricsserver.CRDResource}, Verbs: []string{"get", "list", "watch"}, ResourceNames: []string{metricsserver.Instructions}},
			{APIGroups: []string{metricsserver.CRDGroup}, Resources: []string{metricsserver.CRDResource + "/status"}, Verbs: []string{"update", "patch"}, ResourceNames: []string{metricsserver.Instructions}},
			{APIGroups: []string{"", "events.k8s.io"}, Resources: []string{"events"}, Verbs: []string{"create", "patch"}},
		},
		metricsserver.Names().Namespace: {
			{APIGroups: []string{"coordination.k8s.io"}, Resources: []string{"leases"}, Verbs: []string{"get", "update"}, ResourceNames: []string{metricsserver.Names().LeaseName}},
			{APIGroups: []string{"coordination.k8s.io"}, Resources: []string{"leases"}, Verbs: []string{"create"}},
			{APIGroups: []string{"", "events.k8s.io"}, Resources: []string{"events"}, Verbs: []string{"create", "patch"}},
		},
	}
	for ns, rules := range needs {
		ok, missing := validation.Covers(r[ns].Rules, rules)
		assert.True(t, ok, "%s: the operator cannot do what it needs: %v", ns, missing)
	}
	forbidden := []rbacv1.PolicyRule{
		{APIGroups: []string{""}, Resources: []string{"secrets"}, Verbs: []string{"get"}},
		{APIGroups: []string{""}, Resources: []string{"secrets"}, Verbs: []string{"list"}},
		{APIGroups: []string{""}, Resources: []string{"pods"}, Verbs: []string{"create"}},
		{APIGroups: []string{""}, Resources: []string{"configmaps"}, Verbs: []string{"update"}, ResourceNames: []string{"extension-apiserver-authentication"}},
		{APIGroups: []string{""}, Resources: []string{"serviceaccounts/token"}, Verbs: []string{"create"}, ResourceNames: ms},
		{APIGroups: []string{"apps"}, Resources: []string{"deployments"}, Verbs: []string{"delete"}, ResourceNames: ms},
		{APIGroups: []string{"apps"}, Resources: []string{"deployments"}, Verbs: []string{"update"}, ResourceNames: []string{"coredns"}},
		{APIGroups: []string{"apps"}, Resources: []string{"deployments/scale"}, Verbs: []string{"update"}, ResourceNames: ms},
		{APIGroups: []string{"apps"}, Resources: []string{"daemonsets"}, Verbs: []string{"create"}},
		{APIGroups: []string{""}, Resources: []string{"services"}, Verbs: []string{"update"}, ResourceNames: []string{"kube-dns"}},
		{APIGroups: []string{"rbac.authorization.k8s.io"}, Resources: []string{"rolebindings"}, Verbs: []string{"create"}},
		{APIGroups: []string{"rbac.authorization.k8s.io"}, Resources: []string{"roles"}, Verbs: []string{"bind", "escalate"}},
		{APIGroups: []string{"apiregistration.k8s.io"}, Resources: []string{"apiservices"}, Verbs: []string{"create", "update"}},
		{APIGroups: []string{"policy"}, Resources: []string{"poddisruptionbudgets"}, Verbs: []string{"update"}, ResourceNames: ms},
		{APIGroups: []string{metricsserver.CRDGroup}, Resources: []string{metricsserver.CRDResource}, Verbs: []string{"update"}, ResourceNames: []string{metricsserver.Instructions}},
		{APIGroups: []string{"coordination.k8s.io"}, Resources: []string{"leases"}, Verbs: []string{"update"}, ResourceNames: []string{"kube-controller-manager"}},
		{APIGroups: []string{""}, Resources: []string{"users", "serviceaccounts"}, Verbs: []string{"impersonate"}},
	}
	for ns, role := range r {
		for _, f := range forbidden {
			ok, _ := validation.Covers(role.Rules, []rbacv1.PolicyRule{f})
			assert.False(t, ok, "%s: must not cover %v", ns, f)
		}
	}
	// Events cannot be named before they exist; every other change names the object it may change.
	for _, right := range Descriptor().Rights {
		for _, v := range right.Verbs {
			if (v == "update" || v == "patch") && right.Resources[0] != "events" {
				assert.NotEmpty(t, right.ResourceNames, "%v: a change names the object it may change", right.Resources)
			}
		}
	}
}

// A changed copy of the descriptor that reaches beyond what the policy confines is refused by the
// operator package's own check, every problem named.
func TestDescriptorValidateRefusesWiderRights(t *testing.T) {
	cases := map[string]struct {
		change func(d *confine.Descriptor)
		want   string
	}{
		"write RBAC": {func(d *confine.Descriptor) {
			d.Rights = append(d.Rights, confine.Right{Namespace: metricsserver.WatchNamespace, APIGroup: "rbac.authorization.k8s.io", Resources: []string{"rolebindings"}, Verbs: []string{"create"}, Why: "x"})
		}, `writes to "rolebindings" in group "rbac.authorization.k8s.io", which no admission rule confines`},
		"write APIServices": {func(d *confine.Descriptor) {
			d.Rights = append(d.Rights, confine.Right{Namespace: metricsserver.WatchNamespace, APIGroup: "apiregistration.k8s.io", Resources: []string{"apiservices"}, Verbs: []string{"update"}, Why: "x"})
		}, `writes to "apiservices"`},
		"delete":   {func(d *confine.Descriptor) { d.Rights[2].Verbs = append(d.Rights[2].Verbs, "delete") }, `"delete" is not allowed`},
		"wildcard": {func(d *confine.Descriptor) { d.Rights[0].Resources = []string{"*"} }, "wildcards are not allowed"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			d := Descriptor()
			tc.change(d)
			assert.ErrorContains(t, d.Validate(), tc.want)
		})
	}
	assert.NoError(t, Descriptor().Validate(), "each call builds a fresh value")
}

// policyObjects are the renderer's output for spec, the scope kops derives from it and from the
// rendering of the marked spec, and the admission policies of that scope.
func policyObjects(t *testing.T) ([]byte, *confine.Scope, []runtime.Object) {
	t.Helper()
	rendered, err := metricsserver.Render(spec)
	require.NoError(t, err)
	marked, err := metricsserver.Render(Marked(spec))
	require.NoError(t, err)
	scope, err := Descriptor().ScopeFromManifest(rendered, marked, Params(spec))
	require.NoError(t, err)
	objects, err := confine.PolicyObjects(scope)
	require.NoError(t, err)
	return rendered, scope, objects
}

// The admission policies come from the renderer's managed objects, and name nothing else.
func TestPolicyFromTheRendering(t *testing.T) {
	_, scope, objects := policyObjects(t)
	var messages []string
	for _, o := range objects {
		if p, ok := o.(*admissionregistrationv1.ValidatingAdmissionPolicy); ok {
			assert.Equal(t, `request.userInfo.username == "system:serviceaccount:metrics-server-operator-system:metrics-server-operator"`, p.Spec.MatchConditions[0].Expression)
			for _, v := range p.Spec.Validations {
				messages = append(messages, v.Message)
			}
		}
	}
	all := strings.Join(messages, "\n")
	for _, kind := range []string{"Deployment", "Service", "ServiceAccount"} {
		assert.Contains(t, all, "the metrics-server operator may only create or change "+kind+" metrics-server")
	}
	assert.NotContains(t, all, "coredns")
	assert.NotContains(t, all, "APIService", "the APIService is kops's, never the operator's")

	manifest, err := confine.PolicyManifest(scope)
	require.NoError(t, err)
	_, err = kubemanifest.DecodeStrict(manifest)
	require.NoError(t, err)
	assert.Contains(t, string(manifest), "paramKind:\n    apiVersion: addons.x-k8s.io/v1alpha1\n    kind: MetricsServer")

	// The whole built-in rendering gives the same scope: the prerequisites are no managed object.
	builtIn, err := metricsserver.RenderBuiltIn(spec)
	require.NoError(t, err)
	markedBuiltIn, err := metricsserver.RenderBuiltIn(Marked(spec))
	require.NoError(t, err)
	fromBuiltIn, err := Descriptor().ScopeFromManifest(builtIn, markedBuiltIn, Params(spec))
	require.NoError(t, err)
	again, err := confine.PolicyManifest(fromBuiltIn)
	require.NoError(t, err)
	assert.Equal(t, string(manifest), string(again))
}

// The CRD kops generates accepts the fields of metricsserver.Spec, all required.
func TestCustomResourceDefinition(t *testing.T) {
	crd, err := Descriptor().CustomResourceDefinition()
	require.NoError(t, err)
	assert.Equal(t, metricsserver.CRDName, crd.Name)
	assert.Equal(t, "MetricsServer", crd.Spec.Names.Kind)
	assert.Equal(t, "metricsservers", crd.Spec.Names.Plural)
	require.Len(t, crd.Spec.Versions, 1)
	assert.Equal(t, "v1alpha1", crd.Spec.Versions[0].Name)
	schema := crd.Spec.Versions[0].Schema.OpenAPIV3Schema
	assert.ElementsMatch(t, []string{"version", "image", "insecure"}, schema.Properties["spec"].Required)
	assert.Equal(t, "self", schema.Properties["spec"].Properties["insecure"].XValidations[0].Rule)
	assert.NotNil(t, crd.Spec.Versions[0].Subresources, "the status is a subresource")
	manifest, err := Descriptor().CustomResourceDefinitionManifest()
	require.NoError(t, err)
	_, err = kubemanifest.DecodeStrict(manifest)
	require.NoError(t, err)
}

func TestRightsMarkdown(t *testing.T) {
	md := Descriptor().RightsMarkdown()
	assert.Contains(t, md, "| `metrics-server-operator-system` | coordination.k8s.io | `leases` | `get`, `update` | `metrics-server-operator-leader` |")
	assert.NotContains(t, md, "coredns")
}

func keysOf[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// The prerequisites are the renderer's, labelled for the prerequisites addon: kops writes what the
// built-in addon would, the operator none of it.
func TestPrerequisitesAreTheRenderers(t *testing.T) {
	d := Descriptor()
	objects, err := d.PrerequisiteObjects()
	require.NoError(t, err)
	var keys []string
	for _, o := range objects {
		md := o["metadata"].(map[string]interface{})
		keys = append(keys, o["kind"].(string)+"/"+md["name"].(string))
		assert.Equal(t, "prerequisites.metrics-server.addons.x-k8s.io", md["labels"].(map[string]interface{})["addon.kops.k8s.io/name"], keys[len(keys)-1])
	}
	assert.ElementsMatch(t, []string{
		"ClusterRole/system:aggregated-metrics-reader", "ClusterRole/system:metrics-server",
		"ClusterRoleBinding/system:metrics-server", "ClusterRoleBinding/metrics-server:system:auth-delegator",
		"RoleBinding/metrics-server-auth-reader", "APIService/" + metricsserver.APIServiceName,
		"PodDisruptionBudget/metrics-server",
	}, keys)
}

// A rendering that fails reaches every user of the descriptor as a Validate error naming it.
func TestPrerequisitesRenderingErrorIsRefused(t *testing.T) {
	d := Descriptor()
	d.Prerequisites = prerequisites("")
	assert.ErrorContains(t, d.Validate(), "rendering metrics-server's prerequisites: no addon name")
}
