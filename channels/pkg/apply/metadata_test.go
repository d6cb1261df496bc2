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

package apply

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"k8s.io/kops/channels/pkg/api"
	"k8s.io/kops/util/pkg/vfs"
)

// An object's metadata is checked against what the API server will accept for its kind before
// anything is applied. Before, these objects passed ReadChannel and failed at the server, after
// the addons before them had been applied.
func TestCheckMetadata(t *testing.T) {
	obj := func(apiVersion, kind string, metadata map[string]interface{}) *unstructured.Unstructured {
		return &unstructured.Unstructured{Object: map[string]interface{}{"apiVersion": apiVersion, "kind": kind, "metadata": metadata}}
	}
	named := func(name, namespace string) map[string]interface{} {
		m := map[string]interface{}{"name": name}
		if namespace != "" {
			m["namespace"] = namespace
		}
		return m
	}
	widgetCRD := func(scope string) *unstructured.Unstructured {
		o := obj("apiextensions.k8s.io/v1", "CustomResourceDefinition", named("widgets.example.com", ""))
		o.Object["spec"] = map[string]interface{}{"group": "example.com", "scope": scope,
			"names": map[string]interface{}{"kind": "Widget", "plural": "widgets"}}
		return o
	}
	cases := []struct {
		name string
		obj  *unstructured.Unstructured
		crds []*unstructured.Unstructured
		want []string // one substring per error; none: valid
	}{
		{"configmap", obj("v1", "ConfigMap", named("coredns", "kube-system")), nil, nil},
		{"traversal in a name", obj("v1", "ConfigMap", named("../x", "kube-system")), nil,
			[]string{`metadata.name: Invalid value: "../x": a lowercase RFC 1123 subdomain`}},
		{"a name of dots", obj("example.com/v1", "Unknown", named("..", "")), nil,
			[]string{`metadata.name: Invalid value: "..": may not be '..'`}},
		{"a percent sign, any kind", obj("example.com/v1", "Unknown", named("a%2Fb", "")), nil,
			[]string{`metadata.name: Invalid value: "a%2Fb": may not contain '%'`}},
		{"a slash, any kind", obj("example.com/v1", "Unknown", named("a/b", "")), nil,
			[]string{`metadata.name: Invalid value: "a/b": may not contain '/'`}},
		{"an unknown kind keeps upper case and colons", obj("example.com/v1", "Unknown", named("Some:Name", "")), nil, nil},
		{"namespace with a blank", obj("v1", "ConfigMap", named("a", "Bad NS")), nil,
			[]string{`metadata.namespace: Invalid value: "Bad NS": a lowercase RFC 1123 label`}},
		{"namespace of an unknown kind", obj("example.com/v1", "Unknown", named("a", "Bad NS")), nil,
			[]string{`metadata.namespace: Invalid value: "Bad NS"`}},
		{"namespaced kind without a namespace", obj("apps/v1", "Deployment", named("a", "")), nil,
			[]string{"metadata.namespace: Required value: Deployment is namespaced"}},
		{"cluster-scoped kind with a namespace", obj("rbac.authorization.k8s.io/v1", "ClusterRole", named("system:coredns", "kube-system")), nil,
			[]string{"metadata.namespace: Forbidden: ClusterRole is cluster-scoped"}},
		{"an APIService is cluster-scoped", obj("apiregistration.k8s.io/v1", "APIService", named("v1beta1.metrics.k8s.io", "kube-system")), nil,
			[]string{"metadata.namespace: Forbidden: APIService is cluster-scoped"}},
		{"RBAC names are path segments", obj("rbac.authorization.k8s.io/v1", "ClusterRoleBinding", named("system:coredns", "")), nil, nil},
		{"RBAC names still have no slash", obj("rbac.authorization.k8s.io/v1", "Role", named("a/b", "x")), nil,
			[]string{`metadata.name: Invalid value: "a/b": may not contain '/'`}},
		{"a Service name is a label", obj("v1", "Service", named("kube-dns.x", "kube-system")), nil,
			[]string{`metadata.name: Invalid value: "kube-dns.x": must not contain dots`}},
		{"a StatefulSet name is a label", obj("apps/v1", "StatefulSet", named(strings.Repeat("a", 64), "x")), nil,
			[]string{"must be no more than 63 characters"}},
		{"a PodDisruptionBudget name is only a path segment", obj("policy/v1", "PodDisruptionBudget", named("Kube_DNS", "kube-system")), nil, nil},
		{"a Namespace name is a DNS-1123 label", obj("v1", "Namespace", named("a.b", "")), nil,
			[]string{`metadata.name: Invalid value: "a.b": must not contain dots`}},
		{"a subdomain has at most 253 characters", obj("v1", "Secret", named(strings.Repeat("a", 254), "x")), nil,
			[]string{"must be no more than 253 characters"}},
		{"generateName", obj("v1", "ConfigMap", map[string]interface{}{"generateName": "a-", "namespace": "x"}), nil,
			[]string{"metadata.generateName: Forbidden: server-side apply needs a fixed metadata.name", "metadata.name: Required value"}},
		{"generateName beside a name", obj("v1", "ConfigMap", map[string]interface{}{"name": "a", "generateName": "a-", "namespace": "x"}), nil,
			[]string{"metadata.generateName: Forbidden"}},
		{"a name that is not a string", obj("v1", "ConfigMap", map[string]interface{}{"name": int64(12), "namespace": "x"}), nil,
			[]string{"metadata.name: Invalid value: 12: must be a string"}},
		{"labels and annotations", obj("v1", "ConfigMap", map[string]interface{}{"name": "a", "namespace": "x",
			"labels": map[string]interface{}{"a": "not a value"}, "annotations": map[string]interface{}{"-bad": "v"}}), nil,
			[]string{`metadata.labels: Invalid value: "not a value"`, `metadata.annotations: Invalid value: "-bad"`}},
		{"a CRD is named plural.group", func() *unstructured.Unstructured {
			o := widgetCRD("Namespaced")
			o.SetName("widget.example.com")
			return o
		}(), nil, []string{`metadata.name: Invalid value: "widget.example.com": a CustomResourceDefinition is named <spec.names.plural>.<spec.group>, here widgets.example.com`}},
		{"a namespaced custom kind of the channel", obj("example.com/v1", "Widget", named("a", "x")), []*unstructured.Unstructured{widgetCRD("Namespaced")}, nil},
		{"a namespaced custom kind of the channel, without a namespace", obj("example.com/v1", "Widget", named("a", "")),
			[]*unstructured.Unstructured{widgetCRD("Namespaced")}, []string{"metadata.namespace: Required value: Widget is namespaced"}},
		{"a cluster-scoped custom kind of the channel, with a namespace", obj("example.com/v1", "Widget", named("a", "x")),
			[]*unstructured.Unstructured{widgetCRD("Cluster")}, []string{"metadata.namespace: Forbidden: Widget is cluster-scoped"}},
		{"a custom resource's name is a subdomain", obj("example.com/v1", "Widget", named("Some:Name", "")),
			[]*unstructured.Unstructured{widgetCRD("Cluster")}, []string{`metadata.name: Invalid value: "Some:Name": a lowercase RFC 1123 subdomain`}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			errs := checkMetadata(tc.obj, withCRDs(tc.crds))
			var got []string
			for _, e := range errs {
				got = append(got, e.Error())
			}
			require.Len(t, got, len(tc.want), strings.Join(got, "\n"))
			for i, w := range tc.want {
				assert.Contains(t, got[i], w)
			}
		})
	}
}

// Every bad name and namespace of every manifest is reported at once, each with the addon's path
// in the channel, the manifest, the document, the line of the field and the field path; nothing is
// returned to apply. A custom kind's scope comes from a CRD in another addon of the channel.
func TestReadChannelChecksObjectMetadata(t *testing.T) {
	good := "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  namespace: kube-system\n"
	// Line 10 is the name, line 11 the namespace of document 2.
	bad := good + "---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ../x\n  namespace: Bad NS\n"
	crd := "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: widgets.example.com\n" +
		"spec:\n  group: example.com\n  scope: Namespaced\n  names: {kind: Widget, plural: widgets}\n"
	// Document 2 (after a comment-only document, which is not counted) starts on line 9; it has no
	// namespace, so its problem is on its metadata line, 11.
	widgets := "apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\n  namespace: kube-system\n---\n# nothing\n---\n" +
		"apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: v\n"
	cluster := "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata:\n  generateName: role-\n  namespace: kube-system\n"
	manifests := map[string]string{"good.yaml": good, "bad.yaml": bad, "crd.yaml": crd, "widgets.yaml": widgets, "cluster.yaml": cluster}
	channel := api.NewAddons("bootstrap")
	for _, name := range []string{"good", "bad", "widgets", "crd"} {
		channel.Spec.Addons = append(channel.Spec.Addons, api.AddonSpec{Name: name, Manifest: name + ".yaml", ManifestHash: api.ManifestHash([]byte(manifests[name+".yaml"]))})
	}
	channel.Spec.TakeOver = []api.AddonSpec{{Name: "cluster", Manifest: "cluster.yaml", ManifestHash: api.ManifestHash([]byte(cluster))}}
	data, err := channel.Encode()
	require.NoError(t, err)
	mem := &vfs.MemFS{}
	location := writeChannel(t, mem, string(data), manifests)

	ch, err := ReadChannel(location, vfs.NewContext(mem))
	require.Error(t, err)
	assert.Nil(t, ch, "nothing is applied")
	var invalid *InvalidChannelError
	require.ErrorAs(t, err, &invalid)
	assert.Len(t, invalid.Problems, 3, "one per addon with problems: bad, widgets, cluster")
	dir := "memfs://store/c/addons/"
	for _, want := range []string{
		"spec.addons[1] (bad): " + dir + `bad.yaml:10: document 2 (ConfigMap Bad NS/../x): metadata.name: Invalid value: "../x"`,
		dir + `bad.yaml:11: document 2 (ConfigMap Bad NS/../x): metadata.namespace: Invalid value: "Bad NS"`,
		"spec.addons[2] (widgets): " + dir + "widgets.yaml:11: document 2 (Widget.example.com v): metadata.namespace: Required value: Widget is namespaced",
		"spec.takeOver[0] (cluster): " + dir + "cluster.yaml:3: document 1 (ClusterRole.rbac.authorization.k8s.io kube-system/): metadata.name: Required value",
		dir + "cluster.yaml:4: document 1 (ClusterRole.rbac.authorization.k8s.io kube-system/): metadata.generateName: Forbidden",
		dir + "cluster.yaml:5: document 1 (ClusterRole.rbac.authorization.k8s.io kube-system/): metadata.namespace: Forbidden: ClusterRole is cluster-scoped",
	} {
		assert.Contains(t, err.Error(), want)
	}
	assert.NotContains(t, err.Error(), "(good)")
	assert.NotContains(t, err.Error(), "(crd)")
	assert.NotContains(t, err.Error(), "Widget.example.com kube-system/w")
}
