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
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"k8s.io/kops/channels/pkg/api"
	"k8s.io/kops/util/pkg/vfs"
)

func TestReasonToApply(t *testing.T) {
	current := &api.ChannelVersion{ID: "k8s-1.12", ManifestHash: "abc", SystemGeneration: SystemGeneration, FieldManager: "kops-channels", Inventory: &api.Inventory{}}
	kops := &api.ChannelVersion{ID: "k8s-1.12", ManifestHash: "abc", SystemGeneration: SystemGeneration}
	cases := []struct {
		recorded *api.ChannelVersion
		id, hash string
		want     string
	}{
		{nil, "k8s-1.12", "abc", "new: the cluster does not run it yet"},
		{current, "k8s-1.12", "abc", ""},
		{current, "k8s-1.16", "abc", `its id changed from "k8s-1.12" to "k8s-1.16"`},
		{current, "k8s-1.12", "def", "its manifest changed"},
		{&api.ChannelVersion{ID: "k8s-1.12", ManifestHash: "abc", FieldManager: "kops-channels", Inventory: &api.Inventory{}}, "k8s-1.12", "abc", "an older channels applied it"},
		{kops, "k8s-1.12", "abc", "taking over: another tool recorded it, without an inventory of kops-channels's"},
		{kops, "k8s-1.16", "def", "taking over: another tool recorded it, without an inventory of kops-channels's"},
	}
	for _, tc := range cases {
		assert.Equal(t, tc.want, reasonToApply(tc.recorded, tc.id, tc.hash, "kops-channels"))
	}
}

func object(apiVersion, kind, name string, fields map[string]interface{}) *unstructured.Unstructured {
	u := &unstructured.Unstructured{Object: map[string]interface{}{"apiVersion": apiVersion, "kind": kind, "metadata": map[string]interface{}{"name": name}}}
	for k, v := range fields {
		u.Object[k] = v
	}
	return u
}

func crd(group, kind string) *unstructured.Unstructured {
	return object("apiextensions.k8s.io/v1", "CustomResourceDefinition", "x."+group, map[string]interface{}{
		"spec": map[string]interface{}{"group": group, "names": map[string]interface{}{"kind": kind}},
	})
}

func names(addons []*Addon) []string {
	var out []string
	for _, a := range addons {
		out = append(out, a.Spec.Name)
	}
	return out
}

func TestAddonOrder(t *testing.T) {
	resource := &Addon{Spec: api.AddonSpec{Name: "resource"}, Objects: []*unstructured.Unstructured{object("addons.x-k8s.io/v1alpha1", "CoreDNS", "coredns", nil)}}
	operator := &Addon{Spec: api.AddonSpec{Name: "operator"}, Objects: []*unstructured.Unstructured{crd("addons.x-k8s.io", "CoreDNS")}}
	other := &Addon{Spec: api.AddonSpec{Name: "other"}, Objects: []*unstructured.Unstructured{object("v1", "ConfigMap", "a", nil)}}

	order, err := addonOrder([]*Addon{resource, other, operator})
	require.NoError(t, err)
	assert.Equal(t, []string{"other", "operator", "resource"}, names(order), "the resource waits for its CRD, the rest keep the channel's order")

	order, err = addonOrder([]*Addon{operator, resource, other})
	require.NoError(t, err)
	assert.Equal(t, []string{"operator", "resource", "other"}, names(order))

	a := &Addon{Spec: api.AddonSpec{Name: "a"}, Objects: []*unstructured.Unstructured{crd("a.example.com", "A"), object("b.example.com/v1", "B", "b", nil)}}
	b := &Addon{Spec: api.AddonSpec{Name: "b"}, Objects: []*unstructured.Unstructured{crd("b.example.com", "B"), object("a.example.com/v1", "A", "a", nil)}}
	_, err = addonOrder([]*Addon{a, b})
	assert.ErrorContains(t, err, "addons a, b need each other's custom resource definitions")
}

func TestSortObjects(t *testing.T) {
	objs := []*unstructured.Unstructured{
		object("addons.x-k8s.io/v1alpha1", "CoreDNS", "cr", nil),
		object("apps/v1", "Deployment", "d", nil),
		object("v1", "Service", "s", nil),
		object("rbac.authorization.k8s.io/v1", "RoleBinding", "rb", nil),
		object("v1", "ConfigMap", "cm", nil),
		object("rbac.authorization.k8s.io/v1", "Role", "r", nil),
		object("v1", "ServiceAccount", "sa", nil),
		crd("addons.x-k8s.io", "CoreDNS"),
		object("v1", "Namespace", "ns", nil),
		object("admissionregistration.k8s.io/v1", "ValidatingAdmissionPolicyBinding", "vapb", nil),
		object("admissionregistration.k8s.io/v1", "ValidatingAdmissionPolicy", "vap", nil),
	}
	custom := func(gk schema.GroupKind) bool { return gk.Group == "addons.x-k8s.io" }
	sortObjects(objs, custom)
	var got []string
	for _, o := range objs {
		got = append(got, o.GetKind()+"/"+o.GetName())
	}
	assert.Equal(t, []string{
		"Namespace/ns", "CustomResourceDefinition/x.addons.x-k8s.io",
		// The policy and its binding confine what the rights below allow: they come first.
		"ValidatingAdmissionPolicy/vap", "ValidatingAdmissionPolicyBinding/vapb",
		"ServiceAccount/sa", "Role/r", "RoleBinding/rb",
		"ConfigMap/cm", "Deployment/d", "Service/s", "CoreDNS/cr",
	}, got)
}

// Deletion (retirement and prune) takes the apply phases in reverse: custom resources and workloads
// first, then configuration, rights and identities, and the admission policy and its binding last,
// so that nothing they confine outlives them. The inventory's own order (by group and kind) deleted
// the policy before the Roles and the Deployment.
func TestSortForDeletion(t *testing.T) {
	inventoryOrder := func() []*unstructured.Unstructured {
		return []*unstructured.Unstructured{
			object("v1", "ConfigMap", "cm", nil),
			object("v1", "Service", "s", nil),
			object("v1", "ServiceAccount", "sa", nil),
			object("addons.x-k8s.io/v1alpha1", "CoreDNS", "cr", nil),
			object("admissionregistration.k8s.io/v1", "ValidatingAdmissionPolicy", "vap", nil),
			object("admissionregistration.k8s.io/v1", "ValidatingAdmissionPolicyBinding", "vapb", nil),
			object("apps/v1", "Deployment", "d", nil),
			object("rbac.authorization.k8s.io/v1", "ClusterRole", "cr", nil),
			object("rbac.authorization.k8s.io/v1", "ClusterRoleBinding", "crb", nil),
			object("rbac.authorization.k8s.io/v1", "Role", "r", nil),
			object("rbac.authorization.k8s.io/v1", "RoleBinding", "rb", nil),
		}
	}
	custom := func(gk schema.GroupKind) bool { return gk.Group == "addons.x-k8s.io" }
	kindsOf := func(objs []*unstructured.Unstructured) []string {
		var out []string
		for _, o := range objs {
			out = append(out, o.GetKind()+"/"+o.GetName())
		}
		return out
	}

	deletion := inventoryOrder()
	sortForDeletion(deletion, func(o *unstructured.Unstructured) *unstructured.Unstructured { return o }, custom)
	assert.Equal(t, []string{
		"CoreDNS/cr", "Service/s", "Deployment/d", "ConfigMap/cm",
		"ClusterRoleBinding/crb", "RoleBinding/rb", "ClusterRole/cr", "Role/r",
		"ServiceAccount/sa",
		"ValidatingAdmissionPolicyBinding/vapb", "ValidatingAdmissionPolicy/vap",
	}, kindsOf(deletion))

	// The same phases as applying, reversed: derived from one ordering, not a second list.
	applying := inventoryOrder()
	sortObjects(applying, custom)
	phase := phaseOf(custom)
	var applyPhases, deletePhases []int
	for i := range applying {
		applyPhases = append(applyPhases, phase(applying[len(applying)-1-i]))
		deletePhases = append(deletePhases, phase(deletion[i]))
	}
	assert.Equal(t, applyPhases, deletePhases)

	// Items other than objects (retirement sorts what it retires) are ordered by their object.
	type item struct{ obj *unstructured.Unstructured }
	items := []item{{object("admissionregistration.k8s.io/v1", "ValidatingAdmissionPolicy", "vap", nil)}, {object("rbac.authorization.k8s.io/v1", "Role", "r", nil)}}
	sortForDeletion(items, func(i item) *unstructured.Unstructured { return i.obj }, custom)
	assert.Equal(t, "Role", items[0].obj.GetKind())
}

func writeChannel(t *testing.T, mem *vfs.MemFS, channel string, files map[string]string) string {
	base, err := vfs.ParsePath("memfs://store/c/addons", mem)
	require.NoError(t, err)
	for name, data := range files {
		require.NoError(t, base.Join(name).WriteFile([]byte(data)))
	}
	require.NoError(t, base.Join("bootstrap-channel.yaml").WriteFile([]byte(channel)))
	return "memfs://store/c/addons/bootstrap-channel.yaml"
}

func TestReadChannel(t *testing.T) {
	mem := &vfs.MemFS{}
	good := "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  namespace: kube-system\n"
	channel := api.NewAddons("bootstrap")
	channel.Spec.Addons = []api.AddonSpec{{Name: "good", ID: "v1", Manifest: "good/v1.yaml", ManifestHash: api.ManifestHash([]byte(good))}}
	data, err := channel.Encode()
	require.NoError(t, err)
	location := writeChannel(t, mem, string(data), map[string]string{"good/v1.yaml": good})

	ch, err := ReadChannel(location, vfs.NewContext(mem))
	require.NoError(t, err)
	require.Len(t, ch.Addons, 1)
	require.Len(t, ch.Addons[0].Objects, 1)
	assert.Equal(t, "kube-system", ch.Addons[0].Spec.RecordNamespace())

	_, err = ReadChannel("memfs://store/none.yaml", vfs.NewContext(mem))
	assert.ErrorContains(t, err, "reading channel")
}

// Every problem of a channel and its manifests is found before anything is applied, and each is
// reported with its file, line and field path. Before, a manifest problem failed its addon only
// and the other addons were applied.
func TestReadChannelReportsEveryProblem(t *testing.T) {
	hash := func(s string) string { return api.ManifestHash([]byte(s)) }
	good := "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  namespace: kube-system\n"
	// Document 2 lacks a name; its metadata is on line 10 of the file.
	noName := good + "---\n# a comment\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  namespace: kube-system\n"
	badSyntax := good + "---\nkind: [\n"
	channel := `kind: Addons
metadata:
  name: bootstrap
spec:
  addons:
  - name: good
    manifest: good.yaml
    manifestHash: ` + hash(good) + `
  - name: tampered
    manifest: tampered.yaml
    manifestHash: ` + hash(good) + `
  - name: missing
    manifest: missing.yaml
    manifestHash: ` + hash(good) + `
  - name: noname
    manifest: noname.yaml
    manifestHash: ` + hash(noName) + `
  - name: syntax
    manifest: syntax.yaml
    manifestHash: ` + hash(badSyntax) + `
`
	mem := &vfs.MemFS{}
	location := writeChannel(t, mem, channel, map[string]string{
		"good.yaml": good, "tampered.yaml": good + "# changed\n", "noname.yaml": noName, "syntax.yaml": badSyntax,
	})
	_, err := ReadChannel(location, vfs.NewContext(mem))
	require.Error(t, err)
	var invalid *InvalidChannelError
	require.ErrorAs(t, err, &invalid)
	assert.Len(t, invalid.Problems, 4)
	msg := err.Error()
	assert.Contains(t, msg, "channel "+location+" is invalid; nothing was applied")
	assert.Contains(t, msg, "spec.addons[1] (tampered): manifest tampered.yaml has hash")
	assert.Contains(t, msg, "spec.addons[2] (missing): manifest missing.yaml")
	assert.Contains(t, msg, "memfs://store/c/addons/noname.yaml:10: document 2 (ConfigMap kube-system/): metadata.name: Required value")
	assert.Contains(t, msg, "memfs://store/c/addons/syntax.yaml: document 2: yaml: line 7")
	assert.NotContains(t, msg, "(good)")
}

func TestReadChannelInvalidSpec(t *testing.T) {
	mem := &vfs.MemFS{}
	good := "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n"
	h := api.ManifestHash([]byte(good))
	channel := "kind: Addons\nmetadata:\n  name: bootstrap\nspec:\n  addons:\n" +
		"  - manifest: good.yaml\n    manifestHash: " + h + "\n" + // line 6: no name
		"  - name: a\n    manifest: good.yaml\n    manifestHash: " + h + "\n" +
		"  - name: a\n    manifest: good.yaml\n    manifestHash: " + h + "\n" // line 11: duplicate
	location := writeChannel(t, mem, channel, map[string]string{"good.yaml": good})
	_, err := ReadChannel(location, vfs.NewContext(mem))
	require.Error(t, err)
	assert.Contains(t, err.Error(), location+":6: spec.addons[0].name: Required value")
	assert.Contains(t, err.Error(), location+":11: spec.addons[2].name: Duplicate value: \"a (also spec.addons[1])\"")
}

// The takeOver list is read like the addons, with every manifest checked against its hash before
// anything is applied; its problems name spec.takeOver.
func TestReadChannelTakeOver(t *testing.T) {
	good := "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  namespace: kube-system\n"
	h := api.ManifestHash([]byte(good))
	channel := "kind: Addons\nmetadata:\n  name: bootstrap\nspec:\n  addons:\n  - {name: new, manifest: new.yaml, manifestHash: " + h +
		"}\n  takeOver:\n  - {name: old, id: k8s-1.12, manifest: old.yaml, manifestHash: " + h + "}\n"
	mem := &vfs.MemFS{}
	location := writeChannel(t, mem, channel, map[string]string{"new.yaml": good, "old.yaml": good})
	ch, err := ReadChannel(location, vfs.NewContext(mem))
	require.NoError(t, err)
	require.Len(t, ch.Addons, 1)
	require.Len(t, ch.TakeOver, 1)
	assert.Equal(t, "old", ch.TakeOver[0].Spec.Name)
	assert.Len(t, ch.TakeOver[0].Objects, 1)

	location = writeChannel(t, mem, channel, map[string]string{"new.yaml": good, "old.yaml": good + "# changed\n"})
	_, err = ReadChannel(location, vfs.NewContext(mem))
	assert.ErrorContains(t, err, "spec.takeOver[0] (old): manifest old.yaml has hash")
}
