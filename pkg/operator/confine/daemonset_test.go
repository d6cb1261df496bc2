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

package confine_test

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/kubernetes/scheme"

	"k8s.io/kops/pkg/kubemanifest"
	"k8s.io/kops/pkg/operator"
	"k8s.io/kops/pkg/operator/confine"
	"k8s.io/kops/pkg/operator/operatortest"
)

// Each entry of the kinds table names the API resource of its kind: the kind exists at that group
// and version, and the resource is the kind's.
func TestManagedKindsTable(t *testing.T) {
	kinds := operator.ManagedKinds()
	assert.Equal(t, []string{"ConfigMap", "DaemonSet", "Deployment", "Service", "ServiceAccount"}, kinds)
	for _, kind := range kinds {
		gvr, ok := operator.ManagedResource(kind)
		require.True(t, ok, kind)
		gvk := schema.GroupVersionKind{Group: gvr.Group, Version: gvr.Version, Kind: kind}
		assert.True(t, scheme.Scheme.Recognizes(gvk), "%s: no such kind at %s", kind, gvk.GroupVersion())
		plural, _ := meta.UnsafeGuessKindToResource(gvk)
		assert.Equal(t, plural, gvr, kind)
	}
	_, ok := operator.ManagedResource("Secret")
	assert.False(t, ok, "a kind without rules has no resource")
}

// nodeLocalDNS is the throwaway DaemonSet operator's scope, its policies and its rendered objects by kind.
func nodeLocalDNS(t *testing.T) (*confine.Scope, []runtime.Object, map[string]map[string]interface{}) {
	t.Helper()
	d := operatortest.NodeLocalDNS()
	require.NoError(t, d.Validate(), "a descriptor managing a DaemonSet is valid")
	s, err := operatortest.NodeLocalDNSScope()
	require.NoError(t, err)
	policies, err := confine.PolicyObjects(s)
	require.NoError(t, err)
	objs, err := kubemanifest.DecodeStrict(operatortest.NodeLocalDNSManifest())
	require.NoError(t, err)
	rendered := map[string]map[string]interface{}{}
	for _, o := range objs {
		rendered[o.Kind], err = operatortest.CELObject(o.Raw)
		require.NoError(t, err)
	}
	return s, policies, rendered
}

// The policies generated for an operator managing a DaemonSet: the scope policy sees its writes of
// DaemonSets, the exact policy compares its DaemonSet whole with the instructions' image as the one
// hole, and probes with a DaemonSet.
func TestDaemonSetPolicy(t *testing.T) {
	s, policies, _ := nodeLocalDNS(t)
	require.Len(t, policies, 4)
	scope := policies[0].(*admissionregistrationv1.ValidatingAdmissionPolicy)
	exact := policies[2].(*admissionregistrationv1.ValidatingAdmissionPolicy)
	rules := scope.Spec.MatchConstraints.ResourceRules
	require.Len(t, rules, 4)
	assert.Equal(t, admissionregistrationv1.Rule{APIGroups: []string{"apps"}, APIVersions: []string{"v1"}, Resources: []string{"daemonsets"}}, rules[0].Rule)
	assert.Equal(t, []string{"configmaps", "serviceaccounts", "events"}, rules[1].Resources)
	assert.Equal(t, admissionregistrationv1.Rule{APIGroups: []string{"coordination.k8s.io"}, APIVersions: []string{"v1"}, Resources: []string{"leases"}}, rules[3].Rule)
	exactRules := exact.Spec.MatchConstraints.ResourceRules
	require.Len(t, exactRules, 1, "the image flows into the DaemonSet only")
	assert.Equal(t, []string{"daemonsets"}, exactRules[0].Resources)
	assert.Equal(t, []string{"node-local-dns"}, exactRules[0].ResourceNames)
	assert.Equal(t, &admissionregistrationv1.ParamKind{APIVersion: "addons.x-k8s.io/v1alpha1", Kind: "NodeLocalDNS"}, exact.Spec.ParamKind)
	require.Len(t, exact.Spec.Variables, 2)
	assert.Equal(t, "daemonset_spec", exact.Spec.Variables[0].Name)
	assert.Equal(t, "managed_fields_kept", exact.Spec.Variables[1].Name, "other managers' entries are judged once per policy")
	assert.Contains(t, exact.Spec.Variables[0].Expression, `"image": dyn(params.spec.image)`)
	assert.NotContains(t, exact.Spec.Variables[0].Expression, operatortest.NodeLocalDNSImage, "the image is the instructions', not a constant")
	var messages []string
	for _, v := range exact.Spec.Validations {
		messages = append(messages, v.Message)
	}
	assert.Contains(t, strings.Join(messages, "\n"), "the node-local-dns operator may write DaemonSet node-local-dns only as kops renders it: spec exactly as rendered, with spec.image of its instructions")
	assert.Equal(t, "DaemonSet", s.Objects[0].Kind)

	binding := policies[3].(*admissionregistrationv1.ValidatingAdmissionPolicyBinding)
	probe := binding.Annotations["channels.kops.k8s.io/enforcement-probe"]
	assert.Contains(t, probe, `"kind":"DaemonSet"`, "the exact policy is probed with its DaemonSet")
}

func daemonSetWrite(operation string, obj, old map[string]interface{}) operatortest.Request {
	return operatortest.Request{Operation: operation, Group: "apps", Resource: "daemonsets", Namespace: "kube-system",
		Username: operatortest.NodeLocalDNS().Username(), Object: obj, OldObject: old, Params: operatortest.NodeLocalDNSInstructions()}
}

func denials(t *testing.T, policies *operatortest.Policies, r operatortest.Request) []string {
	t.Helper()
	denied, err := policies.Denials(r)
	require.NoError(t, err)
	return denied
}

// Exactly the DaemonSet kops renders is admitted; every attack on it, every leaf changed and every
// key added is refused, and so is a DaemonSet of another name.
func TestDaemonSetPolicyAdmitsOnlyTheRendering(t *testing.T) {
	_, objects, rendered := nodeLocalDNS(t)
	policies, err := operatortest.Compile(objects)
	require.NoError(t, err)
	ds := rendered["DaemonSet"]
	fresh := runtime.DeepCopyJSON(ds)
	delete(fresh["metadata"].(map[string]interface{})["labels"].(map[string]interface{}), "addon.kops.k8s.io/name")
	assert.Empty(t, denials(t, policies, daemonSetWrite("CREATE", fresh, nil)), "create, without channels' label")
	assert.Empty(t, denials(t, policies, daemonSetWrite("UPDATE", ds, ds)), "update, channels' label as it was")
	generation := runtime.DeepCopyJSON(ds)
	generation["metadata"].(map[string]interface{})["annotations"] = map[string]interface{}{"deprecated.daemonset.template.generation": "3"}
	assert.Empty(t, denials(t, policies, daemonSetWrite("UPDATE", generation, ds)), "the template generation the server keeps")

	for _, m := range operatortest.WorkloadAttacks(ds) {
		denied := denials(t, policies, daemonSetWrite("UPDATE", m.Object, ds))
		assert.Contains(t, denied, "the node-local-dns operator may write DaemonSet node-local-dns only as kops renders it: spec exactly as rendered, with spec.image of its instructions",
			"%s was admitted", m.Path)
		denied = denials(t, policies, daemonSetWrite("CREATE", m.Object, nil))
		assert.NotEmpty(t, denied, "%s was admitted on create", m.Path)
	}

	identity := func(path string) bool { return path == "apiVersion" || path == "kind" || path == "metadata.namespace" }
	mutations := operatortest.Leaves(ds, identity)
	mutations = append(mutations, operatortest.Additions(ds, func(string) bool { return false },
		func(string, map[string]interface{}) map[string]interface{} {
			return map[string]interface{}{"kopsProbe": "x"}
		})...)
	for _, m := range mutations {
		assert.NotEmpty(t, denials(t, policies, daemonSetWrite("UPDATE", m.Object, ds)), "%s was admitted", m.Path)
	}
	assert.Greater(t, len(mutations), 80, "the DaemonSet was walked")

	other := runtime.DeepCopyJSON(fresh)
	other["metadata"].(map[string]interface{})["name"] = "kube-proxy"
	assert.Contains(t, denials(t, policies, daemonSetWrite("CREATE", other, nil)), "the node-local-dns operator may only create or change DaemonSet node-local-dns")

	// The image is the instructions': another one is admitted once kops wrote it there, not before.
	moved := runtime.DeepCopyJSON(ds)
	moved["spec"].(map[string]interface{})["template"].(map[string]interface{})["spec"].(map[string]interface{})["containers"].([]interface{})[0].(map[string]interface{})["image"] = "mirror.example.com/dns/k8s-dns-node-cache:1.26.5"
	assert.NotEmpty(t, denials(t, policies, daemonSetWrite("UPDATE", moved, ds)), "an image the instructions do not name")
	req := daemonSetWrite("UPDATE", moved, ds)
	req.Params["spec"] = map[string]interface{}{"image": "mirror.example.com/dns/k8s-dns-node-cache:1.26.5"}
	assert.Empty(t, denials(t, policies, req), "the image the instructions name")
}

// What kops renders as a DaemonSet must run as its own account: the exact match would admit a
// rendering whose pods run as the namespace's default account, so kops refuses to derive a policy
// from it.
func TestDaemonSetRenderingNeedsItsOwnAccount(t *testing.T) {
	for name, replace := range map[string]string{
		"no account":      "",
		"default account": "      serviceAccountName: default\n      serviceAccount: default\n",
	} {
		t.Run(name, func(t *testing.T) {
			manifest := strings.Replace(string(operatortest.NodeLocalDNSManifest()),
				"      serviceAccountName: node-local-dns\n      serviceAccount: node-local-dns\n", replace, 1)
			require.NotEqual(t, string(operatortest.NodeLocalDNSManifest()), manifest)
			_, err := operatortest.NodeLocalDNS().ScopeFromManifest([]byte(manifest), []byte(manifest), nil)
			assert.ErrorContains(t, err, "DaemonSet node-local-dns: spec.template.spec.serviceAccountName must name the workload's own ServiceAccount")
		})
	}
}

// The docs name exactly the kinds of the table.
func TestDocsNameTheManagedKinds(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "..", "docs", "operator-confinement.md"))
	require.NoError(t, err)
	doc := strings.Join(strings.Fields(string(data)), " ")
	_, after, found := strings.Cut(doc, "The kinds are ")
	require.True(t, found, `docs/operator-confinement.md says "The kinds are ..."`)
	sentence, _, _ := strings.Cut(after, ";")
	named := strings.FieldsFunc(strings.ReplaceAll(sentence, " and ", ","), func(r rune) bool { return r == ',' || r == ' ' })
	sort.Strings(named)
	assert.Equal(t, operator.ManagedKinds(), named)
}
