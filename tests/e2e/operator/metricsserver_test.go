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
	"maps"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	authenticationv1 "k8s.io/api/authentication/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/dynamic"

	"k8s.io/kops/pkg/addons/metricsserver"
	metricsservermodel "k8s.io/kops/pkg/addons/metricsserver/kopsmodel"
	"k8s.io/kops/pkg/operator/confine"
	"k8s.io/kops/tests/e2e/framework"
)

// metrics-server's operator, confined by the Roles and admission policies kops generates from
// metricsservermodel.Descriptor() and the renderer (metricsserver.Render, Params, Marked), with a
// MetricsServer object as the policies' params, on the real API server.

// metricsServerSpec is the spec kops writes into the MetricsServer object of a cluster that names
// no image.
var metricsServerSpec = metricsserver.Spec{Version: metricsserver.DefaultVersion, Image: metricsserver.DefaultImage, Insecure: true}

// metricsServerRow is metrics-server's operator in the attacker's table.
func metricsServerRow() confinedOperator {
	return confinedOperator{name: "metrics-server", descriptor: metricsservermodel.Descriptor, deploy: metricsServerOperator}
}

// metricsServerOperator applies, once, everything kops would for metrics-server's operator: its
// confinement, its instructions, the managed objects as rendered and the prerequisites kops writes
// (RBAC, the APIService, the PodDisruptionBudget), so that the attacks on them hit real objects.
func metricsServerOperator(t *testing.T) map[string]map[string]interface{} {
	d := metricsservermodel.Descriptor()
	manifest, err := metricsserver.Render(metricsServerSpec)
	require.NoError(t, err)
	prerequisites, err := metricsserver.RenderPrerequisites(metricsServerSpec, d.PrerequisitesAddon())
	require.NoError(t, err)
	return deployOperator(t, operatorSetup{
		descriptor: d,
		instructions: map[string]interface{}{
			"apiVersion": metricsserver.APIVersion, "kind": metricsserver.CRDKind,
			"metadata": map[string]interface{}{"name": metricsserver.Instructions, "namespace": metricsserver.WatchNamespace},
			"spec":     map[string]interface{}{"version": metricsServerSpec.Version, "image": metricsServerSpec.Image, "insecure": true},
		},
		manifest:      manifest,
		prerequisites: prerequisites,
		scope: func() (*confine.Scope, error) {
			marked, err := metricsserver.Render(metricsservermodel.Marked(metricsServerSpec))
			if err != nil {
				return nil, err
			}
			return d.ScopeFromManifest(manifest, marked, metricsservermodel.Params(metricsServerSpec))
		},
	})
}

// The Service kops renders leaves its address to the server, which allocates it and sets its
// family from it: what the server stores is the rendering and exactly those, the keys the
// kinds table leaves free when a rendering leaves them out. Every other field is rendered.
func TestMetricsServerServiceStoredAsRendered(t *testing.T) {
	rendered := metricsServerOperator(t)
	stored := putBack(t, "Service", rendered["Service"])
	spec := stored["spec"].(map[string]interface{})
	want := rendered["Service"]["spec"].(map[string]interface{})
	var added []string
	for k := range spec {
		if _, ok := want[k]; !ok {
			added = append(added, k)
		}
	}
	assert.ElementsMatch(t, []string{"clusterIP", "clusterIPs", "ipFamilies"}, added, "what the server adds to the rendered spec")
	for k, v := range want {
		assert.Equal(t, normalizeJSON(t, v), normalizeJSON(t, spec[k]), "spec.%s stored as rendered", k)
	}
}

var (
	apiServices = schema.GroupVersionResource{Group: "apiregistration.k8s.io", Version: "v1", Resource: "apiservices"}
	pdbs        = schema.GroupVersionResource{Group: "policy", Version: "v1", Resource: "poddisruptionbudgets"}
	msObjects   = schema.GroupVersionResource{Group: metricsserver.CRDGroup, Version: metricsserver.CRDVersion, Resource: metricsserver.CRDResource}
)

// What is specific to metrics-server, tried as its operator: the APIService that routes
// metrics.k8s.io (pointed elsewhere, its certificate games), its RBAC (escalation), a Service
// metrics-server elsewhere, its own instructions, and deleting what it does not own. Each is refused.
func TestMetricsServerOperatorAttacksDenied(t *testing.T) {
	metricsServerOperator(t)
	ctx := framework.Context(t)
	cs, dyn := asOperatorOf(t, metricsservermodel.Descriptor())
	patch := func(gvr schema.GroupVersionResource, namespace, name, body string) error {
		_, err := dyn.Resource(gvr).Namespace(namespace).Patch(ctx, name, types.MergePatchType, []byte(body), metav1.PatchOptions{DryRun: dryRun})
		return err
	}
	otherService := map[string]interface{}{"apiVersion": "v1", "kind": "Service",
		"metadata": map[string]interface{}{"name": metricsserver.Service, "namespace": "default"},
		"spec":     map[string]interface{}{"ports": []interface{}{map[string]interface{}{"port": int64(443)}}}}
	attacks := map[string]func() error{
		"APIService pointed at another Service": func() error {
			return patch(apiServices, "", metricsserver.APIServiceName, `{"spec":{"service":{"name":"attacker","namespace":"default"}}}`)
		},
		"APIService pointed at another port": func() error {
			return patch(apiServices, "", metricsserver.APIServiceName, `{"spec":{"service":{"port":8443}}}`)
		},
		"APIService verifying a CA of the attacker's": func() error {
			return patch(apiServices, "", metricsserver.APIServiceName, `{"spec":{"insecureSkipTLSVerify":false,"caBundle":"ZXZpbA=="}}`)
		},
		"APIService winning the group's priority": func() error {
			return patch(apiServices, "", metricsserver.APIServiceName, `{"spec":{"groupPriorityMinimum":20000,"versionPriority":1000}}`)
		},
		"APIService status Available": func() error {
			_, err := dyn.Resource(apiServices).Patch(ctx, metricsserver.APIServiceName, types.MergePatchType,
				[]byte(`{"status":{"conditions":[{"type":"Available","status":"True","reason":"Forged"}]}}`), metav1.PatchOptions{DryRun: dryRun}, "status")
			return err
		},
		"another APIService, insecure": func() error {
			_, err := dyn.Resource(apiServices).Create(ctx, &unstructured.Unstructured{Object: map[string]interface{}{
				"apiVersion": "apiregistration.k8s.io/v1", "kind": "APIService", "metadata": map[string]interface{}{"name": "v1.evil.example.com"},
				"spec": map[string]interface{}{"group": "evil.example.com", "version": "v1", "groupPriorityMinimum": int64(100), "versionPriority": int64(100),
					"insecureSkipTLSVerify": true, "service": map[string]interface{}{"name": metricsserver.Service, "namespace": metricsserver.Namespace}}}},
				metav1.CreateOptions{DryRun: dryRun})
			return err
		},
		"delete the APIService": func() error {
			return dyn.Resource(apiServices).Delete(ctx, metricsserver.APIServiceName, metav1.DeleteOptions{DryRun: dryRun})
		},
		"bind itself to cluster-admin": func() error {
			_, err := cs.RbacV1().ClusterRoleBindings().Create(ctx, &rbacv1.ClusterRoleBinding{
				ObjectMeta: metav1.ObjectMeta{Name: "metrics-server-operator-admin"},
				RoleRef:    rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "ClusterRole", Name: "cluster-admin"},
				Subjects:   []rbacv1.Subject{{Kind: "ServiceAccount", Name: metricsserver.Names().ServiceAccount, Namespace: metricsserver.Names().Namespace}},
			}, metav1.CreateOptions{DryRun: dryRun})
			return err
		},
		"secrets into metrics-server's ClusterRole": func() error {
			_, err := cs.RbacV1().ClusterRoles().Patch(ctx, "system:metrics-server", types.JSONPatchType,
				[]byte(`[{"op":"add","path":"/rules/-","value":{"apiGroups":[""],"resources":["secrets"],"verbs":["get","list"]}}]`), metav1.PatchOptions{DryRun: dryRun})
			return err
		},
		"metrics-server bound to another ClusterRole": func() error {
			_, err := cs.RbacV1().ClusterRoleBindings().Patch(ctx, "system:metrics-server", types.MergePatchType,
				[]byte(`{"subjects":[{"kind":"ServiceAccount","name":"metrics-server-operator","namespace":"metrics-server-operator-system"}]}`), metav1.PatchOptions{DryRun: dryRun})
			return err
		},
		"a RoleBinding in kube-system": func() error {
			_, err := cs.RbacV1().RoleBindings(metricsserver.Namespace).Create(ctx, &rbacv1.RoleBinding{
				ObjectMeta: metav1.ObjectMeta{Name: "metrics-server-operator-admin", Namespace: metricsserver.Namespace},
				RoleRef:    rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "ClusterRole", Name: "admin"},
				Subjects:   []rbacv1.Subject{{Kind: "ServiceAccount", Name: metricsserver.Names().ServiceAccount, Namespace: metricsserver.Names().Namespace}},
			}, metav1.CreateOptions{DryRun: dryRun})
			return err
		},
		"a Service metrics-server in another namespace": func() error {
			_, err := dyn.Resource(mustResource("Service")).Namespace("default").Create(ctx, &unstructured.Unstructured{Object: otherService}, metav1.CreateOptions{DryRun: dryRun})
			return err
		},
		"a Service metrics-server in its own namespace": func() error {
			o := maps.Clone(otherService)
			o["metadata"] = map[string]interface{}{"name": metricsserver.Service, "namespace": metricsserver.Names().Namespace}
			_, err := dyn.Resource(mustResource("Service")).Namespace(metricsserver.Names().Namespace).Create(ctx, &unstructured.Unstructured{Object: o}, metav1.CreateOptions{DryRun: dryRun})
			return err
		},
		"its instructions: another image": func() error {
			return patch(msObjects, metricsserver.WatchNamespace, metricsserver.Instructions, `{"spec":{"image":"attacker.example/pwn:1"}}`)
		},
		"its instructions: deleted": func() error {
			return dyn.Resource(msObjects).Namespace(metricsserver.WatchNamespace).Delete(ctx, metricsserver.Instructions, metav1.DeleteOptions{DryRun: dryRun})
		},
		"its instructions: another object": func() error {
			_, err := dyn.Resource(msObjects).Namespace(metricsserver.WatchNamespace).Create(ctx, &unstructured.Unstructured{Object: map[string]interface{}{
				"apiVersion": metricsserver.APIVersion, "kind": metricsserver.CRDKind, "metadata": map[string]interface{}{"name": "second", "namespace": metricsserver.WatchNamespace},
				"spec": map[string]interface{}{"version": "0.8.0", "image": "attacker.example/pwn:1", "insecure": true}}}, metav1.CreateOptions{DryRun: dryRun})
			return err
		},
		"the PodDisruptionBudget loosened": func() error {
			return patch(pdbs, metricsserver.Namespace, metricsserver.Name, `{"spec":{"minAvailable":0}}`)
		},
		"delete the PodDisruptionBudget": func() error {
			return dyn.Resource(pdbs).Namespace(metricsserver.Namespace).Delete(ctx, metricsserver.Name, metav1.DeleteOptions{DryRun: dryRun})
		},
		"delete its Deployment": func() error {
			return cs.AppsV1().Deployments(metricsserver.Namespace).Delete(ctx, metricsserver.Deployment, metav1.DeleteOptions{DryRun: dryRun})
		},
		"delete its Service": func() error {
			return cs.CoreV1().Services(metricsserver.Namespace).Delete(ctx, metricsserver.Service, metav1.DeleteOptions{DryRun: dryRun})
		},
		"delete its ServiceAccount": func() error {
			return cs.CoreV1().ServiceAccounts(metricsserver.Namespace).Delete(ctx, metricsserver.ServiceAccount, metav1.DeleteOptions{DryRun: dryRun})
		},
		"delete kube-system's client CA": func() error {
			return cs.CoreV1().ConfigMaps(metricsserver.Namespace).Delete(ctx, "extension-apiserver-authentication", metav1.DeleteOptions{DryRun: dryRun})
		},
		"a token for metrics-server": func() error {
			_, err := cs.CoreV1().ServiceAccounts(metricsserver.Namespace).CreateToken(ctx, metricsserver.ServiceAccount, &authenticationv1.TokenRequest{},
				metav1.CreateOptions{DryRun: dryRun})
			return err
		},
	}
	for name, attack := range attacks {
		t.Run(name, func(t *testing.T) {
			assertForbidden(t, attack(), name)
		})
	}

	// The instructions' status is the operator's to write, and a status write cannot change them.
	_, err := dyn.Resource(msObjects).Namespace(metricsserver.WatchNamespace).Patch(ctx, metricsserver.Instructions, types.MergePatchType,
		[]byte(`{"spec":{"image":"attacker.example/pwn:1"},"status":{"phase":"Ready"}}`), metav1.PatchOptions{}, "status")
	require.NoError(t, err, "the operator reports its status")
	got, err := dynamic.NewForConfigOrDie(env.Config).Resource(msObjects).Namespace(metricsserver.WatchNamespace).Get(ctx, metricsserver.Instructions, metav1.GetOptions{})
	require.NoError(t, err)
	image, _, _ := unstructured.NestedString(got.Object, "spec", "image")
	assert.Equal(t, metricsServerSpec.Image, image, "a status write leaves the instructions as kops wrote them")
}

// The operator's rights, as the server's authorizer sees them: its three objects by name in
// kube-system, its instructions read-only, its status, its lease; nothing cluster-scoped, no delete.
func TestMetricsServerOperatorRights(t *testing.T) {
	metricsServerOperator(t)
	who := saIdentity("metrics-server-operator", metricsserver.Names().Namespace, metricsserver.Names().ServiceAccount)
	ks, name := metricsserver.Namespace, metricsserver.Name
	for _, row := range []access{
		{who, "update", "apps", "deployments", "", ks, name, true},
		{who, "patch", "apps", "deployments", "", ks, name, true},
		{who, "get", "apps", "deployments", "", ks, name, true},
		{who, "create", "apps", "deployments", "", ks, "", true}, // by name: the scope policy
		{who, "patch", "", "services", "", ks, name, true},
		{who, "create", "", "services", "", ks, "", true},
		{who, "update", "", "serviceaccounts", "", ks, name, true},
		{who, "get", metricsserver.CRDGroup, metricsserver.CRDResource, "", ks, metricsserver.Instructions, true},
		{who, "update", metricsserver.CRDGroup, metricsserver.CRDResource, "status", ks, metricsserver.Instructions, true},
		{who, "update", "coordination.k8s.io", "leases", "", metricsserver.Names().Namespace, metricsserver.Names().LeaseName, true},
		{who, "patch", "coordination.k8s.io", "leases", "", metricsserver.Names().Namespace, metricsserver.Names().LeaseName, false},
		{who, "create", "", "events", "", ks, "", true},

		{who, "update", metricsserver.CRDGroup, metricsserver.CRDResource, "", ks, metricsserver.Instructions, false},
		{who, "patch", metricsserver.CRDGroup, metricsserver.CRDResource, "", ks, metricsserver.Instructions, false},
		{who, "create", metricsserver.CRDGroup, metricsserver.CRDResource, "", ks, "", false},
		{who, "delete", metricsserver.CRDGroup, metricsserver.CRDResource, "", ks, metricsserver.Instructions, false},
		{who, "list", metricsserver.CRDGroup, metricsserver.CRDResource, "", ks, "", false},
		{who, "update", metricsserver.CRDGroup, metricsserver.CRDResource, "status", ks, "other", false},
		{who, "delete", "apps", "deployments", "", ks, name, false},
		{who, "delete", "", "services", "", ks, name, false},
		{who, "delete", "", "serviceaccounts", "", ks, name, false},
		{who, "update", "apps", "deployments", "", ks, "coredns", false},
		{who, "patch", "", "services", "", ks, "kube-dns", false},
		{who, "update", "apps", "deployments", "scale", ks, name, false},
		{who, "patch", "", "services", "status", ks, name, false},
		{who, "list", "apps", "deployments", "", ks, "", false},
		{who, "list", "", "services", "", ks, "", false},
		{who, "create", "", "services", "", "default", "", false},
		{who, "create", "", "services", "", metricsserver.Names().Namespace, "", false},
		{who, "create", "apps", "deployments", "", "default", "", false},
		{who, "create", "apps", "daemonsets", "", ks, "", false},
		{who, "create", "", "pods", "", ks, "", false},
		{who, "get", "", "secrets", "", ks, "", false},
		{who, "list", "", "secrets", "", "", "", false},
		{who, "get", "", "configmaps", "", ks, "extension-apiserver-authentication", false},
		{who, "create", "", "serviceaccounts", "token", ks, name, false},
		{who, "get", "apiregistration.k8s.io", "apiservices", "", "", metricsserver.APIServiceName, false},
		{who, "update", "apiregistration.k8s.io", "apiservices", "", "", metricsserver.APIServiceName, false},
		{who, "create", "apiregistration.k8s.io", "apiservices", "", "", "", false},
		{who, "delete", "apiregistration.k8s.io", "apiservices", "", "", metricsserver.APIServiceName, false},
		{who, "update", "apiregistration.k8s.io", "apiservices", "status", "", metricsserver.APIServiceName, false},
		{who, "create", "rbac.authorization.k8s.io", "clusterrolebindings", "", "", "", false},
		{who, "update", "rbac.authorization.k8s.io", "clusterroles", "", "", "system:metrics-server", false},
		{who, "escalate", "rbac.authorization.k8s.io", "clusterroles", "", "", "system:metrics-server", false},
		{who, "bind", "rbac.authorization.k8s.io", "clusterroles", "", "", "cluster-admin", false},
		{who, "create", "rbac.authorization.k8s.io", "rolebindings", "", ks, "", false},
		{who, "update", "policy", "poddisruptionbudgets", "", ks, name, false},
		{who, "delete", "policy", "poddisruptionbudgets", "", ks, name, false},
		{who, "get", "metrics.k8s.io", "pods", "", "default", "", false},
		{who, "impersonate", "", "serviceaccounts", "", ks, name, false},
		{who, "update", "admissionregistration.k8s.io", "validatingadmissionpolicies", "", "", metricsservermodel.Descriptor().ExactPolicyName(), false},
		{who, "delete", "admissionregistration.k8s.io", "validatingadmissionpolicybindings", "", "", metricsserver.Names().PolicyName, false},
		{who, "list", "coordination.k8s.io", "leases", "", metricsserver.Names().Namespace, "", false},
		{who, "update", "coordination.k8s.io", "leases", "", ks, "kube-controller-manager", false},
	} {
		t.Run(row.String(), func(t *testing.T) {
			allowed, reason, err := env.SubjectAccessReview(row.who.user, row.who.groups, row.verb, row.group, row.resource, row.subresource, row.namespace, row.name)
			require.NoError(t, err)
			assert.Equal(t, row.allowed, allowed, "reason: %s", reason)
		})
	}
}

// The admin is not confined: the policies match the operator's requests only.
func TestMetricsServerAdminNotConfined(t *testing.T) {
	metricsServerOperator(t)
	_, err := env.Clientset.CoreV1().Services(metricsserver.Namespace).Patch(framework.Context(t), metricsserver.Service, types.MergePatchType,
		[]byte(`{"metadata":{"labels":{"e2e-admin":"yes"}}}`), metav1.PatchOptions{DryRun: dryRun})
	assert.NoError(t, err)
}

// normalizeJSON makes rendered and stored values comparable: numbers decoded alike.
func normalizeJSON(t *testing.T, v interface{}) interface{} {
	data, err := json.Marshal(v)
	require.NoError(t, err)
	var out interface{}
	require.NoError(t, json.Unmarshal(data, &out))
	return out
}
