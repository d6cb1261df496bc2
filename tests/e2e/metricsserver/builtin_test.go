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

package metricsserver

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	authenticationv1 "k8s.io/api/authentication/v1"
	authorizationv1 "k8s.io/api/authorization/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"

	"k8s.io/kops/channels/pkg/apply"
	"k8s.io/kops/pkg/addons/metricsserver"
	"k8s.io/kops/pkg/kubemanifest"
	"k8s.io/kops/tests/e2e/framework"
	"k8s.io/kops/tests/e2e/kopsenv"
)

// What applied did, once for the package.
var (
	appliedOnce    sync.Once
	appliedErr     error
	appliedOutput  string
	appliedObjects []*unstructured.Unstructured
)

// applied is the golden case metrics-server, written by kops update and applied by channels once
// for the package: every test reads the same server.
func applied(t *testing.T) []*unstructured.Unstructured {
	t.Helper()
	appliedOnce.Do(func() {
		s := kopsenv.NewStore(t, "metrics-server")
		location := s.Update(t, "")
		run := kopsenv.Apply(t, env, location, s.Mem, true)
		appliedErr = run.Err
		appliedOutput = run.Output
		if run.Err == nil && run.Outcomes()[metricsserver.AddonName] != apply.Applied {
			appliedErr = fmt.Errorf("addon %s: outcome %v", metricsserver.AddonName, run.Outcomes()[metricsserver.AddonName])
		}
		for _, o := range kopsenv.ManifestObjects(t, location, s.Mem) {
			if o.GetLabels()["addon.kops.k8s.io/name"] == metricsserver.AddonName {
				appliedObjects = append(appliedObjects, o)
			}
		}
	})
	require.NoError(t, appliedErr, appliedOutput)
	return appliedObjects
}

// Every object of the addon is stored, and what the server stores is what kops rendered: the
// server adds nothing to the spec but the Service's allocated address and family. An operator's
// exact admission policy compares the two whole, so a field the server defaults and the renderer
// leaves out would make every operator write refused.
func TestBuiltInAddonIsStoredAsRendered(t *testing.T) {
	objs := applied(t)
	require.Len(t, objs, 10, "7 prerequisites and 3 managed objects")
	dyn, err := dynamic.NewForConfig(env.Config)
	require.NoError(t, err)
	mapper := env.Client.RESTMapper()
	serverAllocated := map[string][]string{"Service": {"clusterIP", "clusterIPs", "ipFamilies"}}
	for _, rendered := range objs {
		gvk := rendered.GroupVersionKind()
		t.Run(gvk.Kind+"/"+rendered.GetName(), func(t *testing.T) {
			m, err := mapper.RESTMapping(gvk.GroupKind(), gvk.Version)
			require.NoError(t, err)
			stored, err := dyn.Resource(m.Resource).Namespace(rendered.GetNamespace()).Get(framework.Context(t), rendered.GetName(), metav1.GetOptions{})
			require.NoError(t, err)
			for _, field := range []string{"spec", "rules", "roleRef", "subjects", "automountServiceAccountToken"} {
				want, ok := rendered.Object[field]
				if !ok {
					continue
				}
				got := stored.Object[field]
				if spec, isMap := got.(map[string]interface{}); isMap && field == "spec" {
					for _, k := range serverAllocated[gvk.Kind] {
						delete(spec, k)
					}
				}
				assert.Equal(t, normalize(t, want), normalize(t, got), "%s: stored as rendered", field)
			}
		})
	}
}

// normalize makes rendered and stored values comparable: numbers decoded alike.
func normalize(t *testing.T, v interface{}) interface{} {
	data, err := json.Marshal(v)
	require.NoError(t, err)
	var out interface{}
	require.NoError(t, json.Unmarshal(data, &out))
	return out
}

// The APIService the server returns decodes strictly into kops's own APIService type: the type
// kubemanifest decodes kops's manifests with holds every field the server has.
func TestAPIServiceTypeHoldsWhatTheServerReturns(t *testing.T) {
	applied(t)
	body, err := env.Clientset.Discovery().RESTClient().Get().AbsPath("/apis/apiregistration.k8s.io/v1/apiservices/" + metricsserver.APIServiceName).DoRaw(framework.Context(t))
	require.NoError(t, err)
	var api kubemanifest.APIService
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	require.NoError(t, dec.Decode(&api), "a field of the server's APIService that kops's type lacks")
	assert.Equal(t, "metrics.k8s.io", api.Spec.Group)
	assert.True(t, api.Spec.InsecureSkipTLSVerify)
	require.NotNil(t, api.Spec.Service)
	assert.Equal(t, metricsserver.Service, api.Spec.Service.Name)
	assert.NotEmpty(t, api.Status.Conditions, "the server reports on the registration (no metrics-server runs here)")
}

// access is one row: may metrics-server do verb on group/resource[/subresource] in namespace (all
// or cluster-scoped when empty) named name (any when empty)?
type access struct {
	verb, group, resource, subresource, namespace, name string
	allowed                                             bool
}

func (a access) String() string {
	return fmt.Sprintf("%s %s/%s/%s %s/%s", a.verb, a.group, a.resource, a.subresource, a.namespace, a.name)
}

var matrix = []access{
	// What metrics-server does: scrape the kubelets' resource metrics, know the pods and nodes...
	{"get", "", "nodes", "metrics", "", "node-a", true},
	{"get", "", "nodes", "", "", "node-a", true},
	{"list", "", "nodes", "", "", "", true},
	{"watch", "", "nodes", "", "", "", true},
	{"get", "", "pods", "", "default", "app", true},
	{"list", "", "pods", "", "", "", true},
	{"watch", "", "pods", "", "", "", true},
	// ...and, as an aggregated API server, delegate authentication and authorization and read
	// the API server's client CA.
	{"create", "authentication.k8s.io", "tokenreviews", "", "", "", true},
	{"create", "authorization.k8s.io", "subjectaccessreviews", "", "", "", true},
	{"get", "", "configmaps", "", "kube-system", "extension-apiserver-authentication", true},
	{"watch", "", "configmaps", "", "kube-system", "extension-apiserver-authentication", true},
	// Nothing else: no secrets, no other configuration, no writes, no proxying to kubelets.
	{"get", "", "secrets", "", "kube-system", "", false},
	{"list", "", "secrets", "", "", "", false},
	{"watch", "", "secrets", "", "kube-system", "", false},
	{"get", "", "configmaps", "", "kube-system", "coredns", false},
	{"list", "", "configmaps", "", "", "", false},
	{"get", "", "nodes", "proxy", "", "node-a", false},
	{"create", "", "nodes", "proxy", "", "node-a", false},
	{"get", "", "nodes", "log", "", "node-a", false},
	{"create", "", "pods", "exec", "default", "app", false},
	{"get", "", "pods", "log", "default", "app", false},
	{"create", "", "pods", "", "default", "", false},
	{"update", "", "pods", "", "default", "app", false},
	{"delete", "", "pods", "", "default", "app", false},
	{"create", "", "pods", "eviction", "default", "app", false},
	{"patch", "", "nodes", "", "", "node-a", false},
	{"patch", "", "nodes", "status", "", "node-a", false},
	{"create", "", "serviceaccounts", "token", "kube-system", "metrics-server", false},
	{"patch", "apps", "deployments", "", "kube-system", "metrics-server", false},
	{"update", "apiregistration.k8s.io", "apiservices", "", "", metricsserver.APIServiceName, false},
	{"get", "metrics.k8s.io", "pods", "", "default", "", false},
	{"escalate", "rbac.authorization.k8s.io", "clusterroles", "", "", "system:metrics-server", false},
	{"bind", "rbac.authorization.k8s.io", "clusterroles", "", "", "cluster-admin", false},
	{"impersonate", "", "users", "", "", "admin", false},
}

func TestRightsBySubjectAccessReview(t *testing.T) {
	applied(t)
	user, groups := framework.ServiceAccountUser(metricsserver.Namespace, metricsserver.ServiceAccount)
	for _, row := range matrix {
		allowed, reason, err := env.SubjectAccessReview(user, groups, row.verb, row.group, row.resource, row.subresource, row.namespace, row.name)
		require.NoError(t, err)
		assert.Equal(t, row.allowed, allowed, "%s (%s)", row, reason)
	}
	// RBAC is on: an account bound to nothing may do none of the allowed rows.
	other, otherGroups := framework.ServiceAccountUser(metricsserver.Namespace, "unbound")
	for _, row := range matrix {
		if !row.allowed {
			continue
		}
		allowed, _, err := env.SubjectAccessReview(other, otherGroups, row.verb, row.group, row.resource, row.subresource, row.namespace, row.name)
		require.NoError(t, err)
		assert.False(t, allowed, "unbound account: %s", row)
	}
}

// metricsServerClient carries a real token of metrics-server's ServiceAccount, issued by
// TokenRequest, and nothing of the admin's credentials.
func metricsServerClient(t *testing.T) kubernetes.Interface {
	cfg, err := env.TokenConfig(framework.Context(t), metricsserver.Namespace, metricsserver.ServiceAccount)
	require.NoError(t, err)
	client, err := kubernetes.NewForConfig(cfg)
	require.NoError(t, err)
	return client
}

// Under its own token, metrics-server reads pods and nodes and reviews requests; a secret stays
// out of its reach.
func TestRequestsUnderItsOwnToken(t *testing.T) {
	applied(t)
	ctx := framework.Context(t)
	client := metricsServerClient(t)
	secret := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: "metrics-server-e2e", Namespace: "kube-system"}, StringData: map[string]string{"k": "v"}}
	_, err := env.Clientset.CoreV1().Secrets("kube-system").Create(ctx, secret, metav1.CreateOptions{})
	require.NoError(t, err)
	t.Cleanup(func() {
		_ = env.Clientset.CoreV1().Secrets("kube-system").Delete(context.Background(), secret.Name, metav1.DeleteOptions{})
	})

	_, err = client.CoreV1().Pods("").List(ctx, metav1.ListOptions{})
	require.NoError(t, err, "lists pods")
	_, err = client.CoreV1().Nodes().List(ctx, metav1.ListOptions{})
	require.NoError(t, err, "lists nodes")
	review, err := client.AuthorizationV1().SubjectAccessReviews().Create(ctx, &authorizationv1.SubjectAccessReview{Spec: authorizationv1.SubjectAccessReviewSpec{
		User: "someone", ResourceAttributes: &authorizationv1.ResourceAttributes{Group: "metrics.k8s.io", Resource: "pods", Verb: "list"},
	}}, metav1.CreateOptions{})
	require.NoError(t, err, "asks the API server whether a request may be served")
	assert.False(t, review.Status.Allowed)

	denied := map[string]func() error{
		"get a secret": func() error {
			_, err := client.CoreV1().Secrets("kube-system").Get(ctx, secret.Name, metav1.GetOptions{})
			return err
		},
		"list secrets": func() error { _, err := client.CoreV1().Secrets("").List(ctx, metav1.ListOptions{}); return err },
		"list configmaps": func() error {
			_, err := client.CoreV1().ConfigMaps("kube-system").List(ctx, metav1.ListOptions{})
			return err
		},
		"mint a token": func() error {
			_, err := client.CoreV1().ServiceAccounts(metricsserver.Namespace).CreateToken(ctx, metricsserver.ServiceAccount,
				&authenticationv1.TokenRequest{}, metav1.CreateOptions{})
			return err
		},
		"create a pod": func() error {
			pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "intruder", Namespace: "kube-system"},
				Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "registry.k8s.io/pause:3.10"}}}}
			_, err := client.CoreV1().Pods("kube-system").Create(ctx, pod, metav1.CreateOptions{})
			return err
		},
		"delete its own Deployment": func() error {
			return client.AppsV1().Deployments(metricsserver.Namespace).Delete(ctx, metricsserver.Deployment, metav1.DeleteOptions{})
		},
	}
	for name, call := range denied {
		err := call()
		assert.True(t, apierrors.IsForbidden(err), "%s: want Forbidden, got %v", name, err)
	}
}
