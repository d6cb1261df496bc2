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
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/dynamic"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/yaml"

	"k8s.io/kops/pkg/addons/coredns"
	corednsmodel "k8s.io/kops/pkg/addons/coredns/kopsmodel"
	"k8s.io/kops/tests/e2e/framework"
	"k8s.io/kops/tests/e2e/kopsenv"
)

// The CoreDNS CRD says exactly what it accepts. Each object is created with a server-side dry
// run, so the real API server validates it (schema, patterns, CEL rules) and stores nothing; the
// namespace is default because kube-system already holds the coredns object kops made.
const crdTestNamespace = "default"

// renderedCoreDNS is the CoreDNS object kops rendered and channels applied in setup.
func renderedCoreDNS(t *testing.T, dyn dynamic.Interface) *unstructured.Unstructured {
	t.Helper()
	cr, err := dyn.Resource(corednsResource).Namespace("kube-system").Get(framework.Context(t), "coredns", metav1.GetOptions{})
	require.NoError(t, err, "setup applied the rendered CoreDNS object")
	obj := &unstructured.Unstructured{Object: map[string]interface{}{
		"apiVersion": cr.GetAPIVersion(), "kind": cr.GetKind(),
		"metadata": map[string]interface{}{"name": cr.GetName(), "namespace": crdTestNamespace},
		"spec":     cr.Object["spec"],
	}}
	return obj
}

func dryRunCreate(t *testing.T, dyn dynamic.Interface, obj *unstructured.Unstructured, validation string) (*unstructured.Unstructured, error) {
	t.Helper()
	return dyn.Resource(corednsResource).Namespace(obj.GetNamespace()).Create(framework.Context(t), obj,
		metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}, FieldValidation: validation})
}

// Every bad value the review got past the CRD, and the other ways to say what kops never says.
// Each is rejected in the most lenient field validation mode (Ignore): the rules do not depend on
// the client asking for strictness.
func TestCRDRejectsWhatTheOperatorMustNotBeTold(t *testing.T) {
	setup(t)
	dyn, err := dynamic.NewForConfig(env.Config)
	require.NoError(t, err)
	rendered := renderedCoreDNS(t, dyn)

	cases := []struct {
		name string
		edit func(spec map[string]interface{}, obj *unstructured.Unstructured)
		want string
	}{
		{"dnsIP with five parts", set("dnsIP", "1.2.3.4.5"), `spec.dnsIP: Invalid value: "1.2.3.4.5": must be an IPv4 or IPv6 address`},
		{"dnsIP with leading zeros", set("dnsIP", "100.064.0.10"), "spec.dnsIP: Invalid value"},
		{"dnsIP with a zone", set("dnsIP", "fe80::a%eth0"), "spec.dnsIP: Invalid value"},
		{"dnsIP IPv4-mapped", set("dnsIP", "::ffff:100.64.0.10"), "spec.dnsIP: Invalid value"},
		{"dnsIP a host name", set("dnsIP", "dns.example.com"), "spec.dnsIP: Invalid value"},
		{"dnsIP a number", set("dnsIP", int64(5)), `spec.dnsIP: Invalid value: "integer": spec.dnsIP in body must be of type string`},
		{"corefile of 900 KiB", set("corefile", strings.Repeat("# padding\n", 900*1024/10)), "spec.corefile: Too long: may not be more than 65536"},
		{"corefile of 64 Ki characters, 128 KiB", set("corefile", strings.Repeat("é", 65536)), "must be at most 65536 bytes (64 KiB)"},
		{"version a path", set("version", "../../../../etc/passwd"), `spec.version: Invalid value: "../../../../etc/passwd": spec.version in body should match`},
		{"version with a v", set("version", "v1.12.4"), "spec.version: Invalid value"},
		{"version with a newline", set("version", "1.12.4\n"), "spec.version: Invalid value"},
		{"dnsDomain with newlines and braces", set("dnsDomain", "cluster.local\n}\n.:53 {\n    forward . 203.0.113.1"), "spec.dnsDomain: Invalid value"},
		{"dnsDomain upper case", set("dnsDomain", "Cluster.Local"), "spec.dnsDomain: Invalid value"},
		{"dnsDomain too long", set("dnsDomain", strings.Repeat("a.", 127)+"aa"), "spec.dnsDomain: Too long"},
		{"channel a URL", set("channel", "http://169.254.169.254/latest/meta-data/"), "spec.channel: Forbidden: cannot be set"},
		{"channel stable", set("channel", "stable"), "spec.channel: Forbidden: cannot be set"},
		{"patches of the Deployment", set("patches", []interface{}{map[string]interface{}{
			"apiVersion": "apps/v1", "kind": "Deployment", "metadata": map[string]interface{}{"name": "coredns"},
			"spec": map[string]interface{}{"template": map[string]interface{}{"spec": map[string]interface{}{
				"initContainers": []interface{}{map[string]interface{}{"name": "x", "image": "attacker.example/pwn:latest", "securityContext": map[string]interface{}{"privileged": true}}},
			}}},
		}}), "spec.patches: Forbidden: cannot be set"},
		{"patches of the image only", set("patches", []interface{}{map[string]interface{}{
			"apiVersion": "apps/v1", "kind": "Deployment", "metadata": map[string]interface{}{"name": "coredns"},
			"spec": map[string]interface{}{"template": map[string]interface{}{"spec": map[string]interface{}{
				"containers": []interface{}{map[string]interface{}{"name": "coredns", "image": "registry.k8s.io/coredns/coredns:v1.12.4"}},
			}}},
		}}), "spec.patches: Forbidden: cannot be set"},
		{"empty patches", set("patches", []interface{}{}), "spec.patches: Forbidden: cannot be set"},
		{"image latest", set("image", "attacker.example/pwn:latest"), `spec.image: Invalid value: "attacker.example/pwn:latest": must be pinned by a version tag or a digest`},
		{"image without a tag", set("image", "registry.k8s.io/coredns/coredns"), "spec.image: Invalid value"},
		{"image with arguments", set("image", "registry.k8s.io/coredns/coredns:v1.12.4 -conf /etc/passwd"), "spec.image: Invalid value"},
		{"image with a short digest", set("image", "registry.k8s.io/coredns/coredns@sha256:abc"), "spec.image: Invalid value"},
		{"no image", unset("image"), "spec.image: Required value"},
		{"no version", unset("version"), "spec.version: Required value"},
		{"no dnsIP", unset("dnsIP"), "spec.dnsIP: Required value"},
		{"no dnsDomain", unset("dnsDomain"), "spec.dnsDomain: Required value"},
		{"no corefile", unset("corefile"), "spec.corefile: Required value"},
		{"no corefileChecksum", unset("corefileChecksum"), "spec.corefileChecksum: Required value"},
		{"corefileChecksum in upper case", set("corefileChecksum", strings.Repeat("AB", 32)), "spec.corefileChecksum: Invalid value"},
		{"corefileChecksum with a prefix", set("corefileChecksum", "sha256:"+strings.Repeat("ab", 32)), "spec.corefileChecksum"},
		{"no spec", func(_ map[string]interface{}, obj *unstructured.Unstructured) { delete(obj.Object, "spec") }, "spec: Required value"},
		{"another name", func(_ map[string]interface{}, obj *unstructured.Unstructured) { obj.SetName("coredns-2") },
			"the operator manages one CoreDNS object, named coredns"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			obj := rendered.DeepCopy()
			spec, ok := obj.Object["spec"].(map[string]interface{})
			require.True(t, ok)
			tc.edit(spec, obj)
			_, err := dryRunCreate(t, dyn, obj, metav1.FieldValidationIgnore)
			require.Error(t, err, "the server accepted it")
			assert.True(t, apierrors.IsInvalid(err), "want 422 Invalid, got %v", err)
			msg := err.Error()
			if len(msg) > 2000 { // the server quotes long values whole
				msg = msg[:1000] + "..." + msg[len(msg)-1000:]
			}
			assert.True(t, strings.Contains(err.Error(), tc.want), "want %q in\n%s", tc.want, msg)
		})
	}
}

// A field the CRD does not declare never reaches the operator: a strict client is refused, any
// other gets a warning and the field is dropped before the object is stored.
func TestCRDUnknownFields(t *testing.T) {
	setup(t)
	dyn, err := dynamic.NewForConfig(env.Config)
	require.NoError(t, err)
	obj := renderedCoreDNS(t, dyn)
	require.NoError(t, unstructured.SetNestedField(obj.Object, "privileged", "spec", "podSecurity"))
	require.NoError(t, unstructured.SetNestedField(obj.Object, "yes", "status", "extra"))

	_, err = dryRunCreate(t, dyn, obj, metav1.FieldValidationStrict)
	require.Error(t, err)
	assert.Contains(t, err.Error(), `unknown field "spec.podSecurity"`)
	assert.Contains(t, err.Error(), `unknown field "status.extra"`)

	// Server-side apply, as channels sends it (no field validation named), is strict too.
	_, err = dyn.Resource(corednsResource).Namespace(obj.GetNamespace()).Apply(framework.Context(t), obj.GetName(), obj,
		metav1.ApplyOptions{FieldManager: "e2e", DryRun: []string{metav1.DryRunAll}})
	require.Error(t, err, "server-side apply")
	assert.Contains(t, err.Error(), "field not declared in schema")

	for _, mode := range []string{metav1.FieldValidationWarn, metav1.FieldValidationIgnore} {
		stored, err := dryRunCreate(t, dyn, obj, mode)
		require.NoError(t, err, mode)
		_, found, _ := unstructured.NestedFieldNoCopy(stored.Object, "spec", "podSecurity")
		assert.False(t, found, "%s: an undeclared field is pruned", mode)
	}
}

// What kops renders is accepted: the object setup applied, the CoreDNS object of every golden
// case (remapped images, custom domains and addresses, an external Corefile, a channel without an
// image), and the edges of each rule.
func TestCRDAcceptsWhatKopsRenders(t *testing.T) {
	setup(t)
	dyn, err := dynamic.NewForConfig(env.Config)
	require.NoError(t, err)
	rendered := renderedCoreDNS(t, dyn)

	objects := map[string]*unstructured.Unstructured{"applied in setup": rendered}
	goldens, err := filepath.Glob(filepath.Join(kopsenv.RepoRoot(t), "tests", "integration", "update_cluster", "*", "expected", "addons", "coredns.addons.x-k8s.io", "*.yaml"))
	require.NoError(t, err)
	require.NotEmpty(t, goldens)
	for _, file := range goldens {
		data, err := os.ReadFile(file)
		require.NoError(t, err)
		obj := &unstructured.Unstructured{}
		require.NoError(t, yaml.UnmarshalStrict(data, &obj.Object), file)
		obj.SetNamespace(crdTestNamespace)
		objects[strings.TrimPrefix(file, kopsenv.RepoRoot(t))] = obj
	}
	for name, edit := range map[string]func(map[string]interface{}, *unstructured.Unstructured){
		"IPv6 dnsIP":                 set("dnsIP", "fd00:10:96::a"),
		"image by digest":            set("image", "registry.k8s.io/coredns/coredns@sha256:"+strings.Repeat("5e", 32)),
		"image by tag and digest":    set("image", "registry.example.com:5000/mirror/coredns/coredns:v1.12.4@sha256:"+strings.Repeat("5e", 32)),
		"pre-release version":        set("version", "1.13.0-rc.1"),
		"corefile of exactly 64 KiB": set("corefile", strings.Repeat("#", 65536)),
	} {
		obj := rendered.DeepCopy()
		edit(obj.Object["spec"].(map[string]interface{}), obj)
		objects[name] = obj
	}
	for name, obj := range objects {
		t.Run(name, func(t *testing.T) {
			stored, err := dryRunCreate(t, dyn, obj, metav1.FieldValidationStrict)
			require.NoError(t, err)
			// Nothing pruned, defaulted or added beyond the metadata the server records of every
			// object (a dry run sets no resourceVersion).
			meta := stored.Object["metadata"].(map[string]interface{})
			for _, field := range []string{"uid", "creationTimestamp", "generation", "managedFields"} {
				_, found := meta[field]
				require.True(t, found, "the server sets metadata.%s", field)
				delete(meta, field)
			}
			assert.Equal(t, obj.Object, stored.Object, "stored exactly as sent")
		})
	}
}

// The CRD on the server is the one kops generates from its Go types, whatever the operator
// package held: one version, served and stored, kops's names and nothing else (no short name, no
// category), the generated schema as sent. Discovery agrees: the group serves one version, and
// the resource answers to no other name.
func TestCRDIsKops(t *testing.T) {
	setup(t)
	want, err := corednsmodel.CustomResourceDefinition()
	require.NoError(t, err)
	got := &apiextensionsv1.CustomResourceDefinition{}
	require.NoError(t, env.Client.Get(framework.Context(t), client.ObjectKey{Name: coredns.CRDName}, got))

	assert.Equal(t, want.Spec.Group, got.Spec.Group)
	assert.Equal(t, want.Spec.Names, got.Spec.Names)
	assert.Equal(t, want.Spec.Names, got.Status.AcceptedNames, "the names the server serves")
	assert.Empty(t, got.Spec.Names.ShortNames)
	assert.Empty(t, got.Spec.Names.Categories)
	assert.Equal(t, want.Spec.Scope, got.Spec.Scope)
	assert.False(t, got.Spec.PreserveUnknownFields)
	if got.Spec.Conversion != nil {
		assert.Equal(t, apiextensionsv1.NoneConverter, got.Spec.Conversion.Strategy, "the server's default, no webhook")
	}
	require.Len(t, got.Spec.Versions, 1)
	assert.Equal(t, want.Spec.Versions, got.Spec.Versions, "the generated version, schema and columns, as sent")
	assert.Equal(t, []string{"v1alpha1"}, got.Status.StoredVersions)
	for k, v := range want.Labels {
		assert.Equal(t, v, got.Labels[k], "label %s", k)
	}
	assert.Equal(t, coredns.Names().AddonName, got.Labels["addon.kops.k8s.io/name"], "the operator's addon applied it")

	group, err := env.Clientset.Discovery().ServerGroups()
	require.NoError(t, err)
	var versions []string
	for _, g := range group.Groups {
		if g.Name == coredns.CRDGroup {
			for _, v := range g.Versions {
				versions = append(versions, v.Version)
			}
		}
	}
	assert.Equal(t, []string{"v1alpha1"}, versions, "the group serves one version")
	resources, err := env.Clientset.Discovery().ServerResourcesForGroupVersion(coredns.APIVersion)
	require.NoError(t, err)
	var found bool
	for _, r := range resources.APIResources {
		if r.Name == coredns.CRDResource {
			found = true
			assert.Empty(t, r.ShortNames)
			assert.Empty(t, r.Categories)
			assert.Equal(t, "coredns", r.SingularName)
		}
	}
	assert.True(t, found, "discovery lists %s", coredns.CRDResource)
}

func set(field string, value interface{}) func(map[string]interface{}, *unstructured.Unstructured) {
	return func(spec map[string]interface{}, _ *unstructured.Unstructured) { spec[field] = value }
}

func unset(field string) func(map[string]interface{}, *unstructured.Unstructured) {
	return func(spec map[string]interface{}, _ *unstructured.Unstructured) { delete(spec, field) }
}
