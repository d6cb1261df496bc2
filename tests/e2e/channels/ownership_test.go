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

package channels

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	corev1ac "k8s.io/client-go/applyconfigurations/core/v1"
	rbacv1ac "k8s.io/client-go/applyconfigurations/rbac/v1"

	"k8s.io/kops/channels/pkg/api"
	"k8s.io/kops/channels/pkg/apply"
	"k8s.io/kops/tests/e2e/framework"
	"k8s.io/kops/tests/e2e/kopsenv"
	"k8s.io/kops/util/pkg/vfs"
)

const addonLabel = "addon.kops.k8s.io/name"

// applyConfigMap server-side applies a ConfigMap carrying addon's label as manager.
func applyConfigMap(t *testing.T, namespace, name, addon, manager string) {
	t.Helper()
	cm := corev1ac.ConfigMap(name, namespace).WithLabels(map[string]string{addonLabel: addon}).WithData(map[string]string{"owner": manager})
	_, err := env.Clientset.CoreV1().ConfigMaps(namespace).Apply(framework.Context(t), cm, metav1.ApplyOptions{FieldManager: manager, Force: true})
	require.NoError(t, err)
}

// applySecret and applyClusterRoleBinding make objects of kinds an addon's inventory does not list.
func applySecret(t *testing.T, namespace, name, addon, manager string) {
	t.Helper()
	s := corev1ac.Secret(name, namespace).WithLabels(map[string]string{addonLabel: addon}).WithStringData(map[string]string{"password": "x"})
	_, err := env.Clientset.CoreV1().Secrets(namespace).Apply(framework.Context(t), s, metav1.ApplyOptions{FieldManager: manager, Force: true})
	require.NoError(t, err)
}

func applyClusterRoleBinding(t *testing.T, name, addon, manager string) {
	t.Helper()
	b := rbacv1ac.ClusterRoleBinding(name).WithLabels(map[string]string{addonLabel: addon}).
		WithRoleRef(rbacv1ac.RoleRef().WithAPIGroup("rbac.authorization.k8s.io").WithKind("ClusterRole").WithName("view")).
		WithSubjects(rbacv1ac.Subject().WithKind("User").WithName("someone"))
	_, err := env.Clientset.RbacV1().ClusterRoleBindings().Apply(framework.Context(t), b, metav1.ApplyOptions{FieldManager: manager, Force: true})
	require.NoError(t, err)
}

// exists tells whether an object is there (and not being deleted), for the checks of what survived.
func exists(t *testing.T, kind, namespace, name string) bool {
	t.Helper()
	ctx := framework.Context(t)
	var err error
	var meta metav1.Object
	switch kind {
	case "ConfigMap":
		meta, err = env.Clientset.CoreV1().ConfigMaps(namespace).Get(ctx, name, metav1.GetOptions{})
	case "Secret":
		meta, err = env.Clientset.CoreV1().Secrets(namespace).Get(ctx, name, metav1.GetOptions{})
	case "ClusterRole":
		meta, err = env.Clientset.RbacV1().ClusterRoles().Get(ctx, name, metav1.GetOptions{})
	case "ClusterRoleBinding":
		meta, err = env.Clientset.RbacV1().ClusterRoleBindings().Get(ctx, name, metav1.GetOptions{})
	default:
		t.Fatalf("unknown kind %s", kind)
	}
	if apierrors.IsNotFound(err) {
		return false
	}
	require.NoError(t, err)
	return meta.GetDeletionTimestamp() == nil
}

// record reads an addon's record from namespace ("" when there is none).
func record(t *testing.T, namespace, addon string) string {
	t.Helper()
	ns, err := env.Clientset.CoreV1().Namespaces().Get(framework.Context(t), namespace, metav1.GetOptions{})
	require.NoError(t, err)
	return ns.Annotations[api.RecordKeyPrefix+addon]
}

func writeRecord(t *testing.T, namespace, addon, value string) {
	t.Helper()
	patch, err := json.Marshal(map[string]interface{}{"metadata": map[string]interface{}{"annotations": map[string]interface{}{api.RecordKeyPrefix + addon: value}}})
	require.NoError(t, err)
	_, err = env.Clientset.CoreV1().Namespaces().Patch(framework.Context(t), namespace, types.MergePatchType, patch, metav1.PatchOptions{})
	require.NoError(t, err)
}

// listInInventory adds ConfigMaps to an addon's record as if we had applied them: a record whose
// inventory names objects we never applied (forged, or stale) must still not delete them.
func listInInventory(t *testing.T, namespace, addon, cmNamespace string, names ...string) {
	t.Helper()
	var rec map[string]interface{}
	require.NoError(t, json.Unmarshal([]byte(record(t, namespace, addon)), &rec))
	require.NotContains(t, rec, "inventoryGzip", "a small addon's inventory is plain")
	inv, _ := rec["inventory"].(map[string]interface{})
	if inv == nil {
		inv = map[string]interface{}{}
		rec["inventory"] = inv
	}
	byNS, _ := inv["ConfigMap"].(map[string]interface{})
	if byNS == nil {
		byNS = map[string]interface{}{}
		inv["ConfigMap"] = byNS
	}
	list, _ := byNS[cmNamespace].([]interface{})
	for _, n := range names {
		list = append(list, n)
	}
	byNS[cmNamespace] = list
	value, err := json.Marshal(rec)
	require.NoError(t, err)
	writeRecord(t, namespace, addon, string(value))
}

func clusterRole(name, addon string) string {
	return "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata:\n  name: " + name +
		"\n  labels:\n    addon.kops.k8s.io/name: " + addon + "\nrules: []\n"
}

// Retiring an addon deletes the objects it applied and nothing else that carries its label: not
// objects of other namespaces (even of the same kind, name and field manager), not objects of
// kinds it never applied, not objects its inventory lists that our field manager did not apply.
// Today's code deletes all of them.
func TestRetireDeletesOnlyWhatItApplied(t *testing.T) {
	const ns, other = "e2e-retire-own", "e2e-retire-other"
	createNamespace(t, ns)
	createNamespace(t, other)
	mem := &vfs.MemFS{}
	mine := configMap(ns, "mine", "mine") + "---\n" + clusterRole("e2e-retire-mine", "mine")
	stays := configMap(ns, "stays", "stays")
	location := testChannel(t, mem, "retire-own", ns, [][2]string{{"mine", mine}, {"stays", stays}}, nil)
	run := kopsenv.Apply(t, env, location, mem, true)
	require.NoError(t, run.Err, run.Output)

	applyConfigMap(t, other, "mine", "mine", "kops-channels")      // same kind, name, label and manager; other namespace
	applyConfigMap(t, ns, "not-listed", "mine", "kops-channels")   // same namespace and kind, not in the inventory
	applyConfigMap(t, ns, "someone-elses", "mine", "someone-else") // listed below, but another manager applied it
	applySecret(t, other, "user-data", "mine", "kops-channels")    // a kind the addon never applied
	applyClusterRoleBinding(t, "e2e-retire-someone-elses", "mine", "someone-else")
	listInInventory(t, ns, "mine", ns, "someone-elses")

	location = testChannel(t, mem, "retire-own", ns, [][2]string{{"stays", stays}}, nil)
	dry := kopsenv.Apply(t, env, location, mem, false)
	require.NoError(t, dry.Err, dry.Output)
	assert.Equal(t, apply.WouldPrune, dry.Outcomes()["mine"])
	assert.Zero(t, dry.Requests.Mutating())

	run = kopsenv.Apply(t, env, location, mem, true)
	require.NoError(t, run.Err, run.Output)
	assert.Equal(t, map[string]apply.Outcome{"stays": apply.Unchanged, "mine": apply.Retired}, run.Outcomes(), run.Output)

	for _, o := range []struct {
		kind, namespace, name string
		survives              bool
	}{
		{"ConfigMap", ns, "mine", false},
		{"ClusterRole", "", "e2e-retire-mine", false},
		{"ConfigMap", ns, "stays", true},
		{"ConfigMap", other, "mine", true},
		{"ConfigMap", ns, "not-listed", true},
		{"ConfigMap", ns, "someone-elses", true},
		{"Secret", other, "user-data", true},
		{"ClusterRoleBinding", "", "e2e-retire-someone-elses", true},
	} {
		assert.Equal(t, o.survives, exists(t, o.kind, o.namespace, o.name), "%s %s/%s survives: %v", o.kind, o.namespace, o.name, o.survives)
	}
	assert.Empty(t, record(t, ns, "mine"), "the retired addon's record is removed")
}

// A record kops's own channels wrote, with this channel's location (kops and we share
// <configBase>/addons/bootstrap-channel.yaml), for an addon our channel does not ship: it is
// reported, and nothing carrying its label is deleted, nor its record. Today's code retires it.
func TestKopsRecordIsLeftAlone(t *testing.T) {
	const ns, teamA = "e2e-kops-record", "e2e-team-a"
	createNamespace(t, ns)
	createNamespace(t, teamA)
	mem := &vfs.MemFS{}
	location := testChannel(t, mem, "kops-record", ns, [][2]string{{"ours", configMap(ns, "ours", "ours")}}, nil)
	kopsRecord := fmt.Sprintf(`{"channel":%q,"id":"k8s-1.16","manifestHash":"0123abcd","systemGeneration":1}`, location)
	writeRecord(t, "kube-system", "networking.cilium.io", kopsRecord)
	t.Cleanup(func() { writeRecordNull(t, "kube-system", "networking.cilium.io") })
	// Even objects our field manager applied are not deleted: the record is not ours.
	applySecret(t, teamA, "user-data", "networking.cilium.io", "kops-channels")
	applyClusterRoleBinding(t, "e2e-someone-elses", "networking.cilium.io", "kops-channels")
	applyConfigMap(t, "kube-system", "cilium-config", "networking.cilium.io", "kubectl")

	for _, yes := range []bool{false, true, true} {
		run := kopsenv.Apply(t, env, location, mem, yes)
		require.NoError(t, run.Err, run.Output)
		assert.Equal(t, apply.LeftAlone, run.Outcomes()["networking.cilium.io"], run.Output)
		assert.Contains(t, run.Output, "managed by another tool")
	}
	assert.True(t, exists(t, "Secret", teamA, "user-data"))
	assert.True(t, exists(t, "ClusterRoleBinding", "", "e2e-someone-elses"))
	assert.True(t, exists(t, "ConfigMap", "kube-system", "cilium-config"))
	assert.Equal(t, kopsRecord, record(t, "kube-system", "networking.cilium.io"), "kops's record is untouched")
}

func writeRecordNull(t *testing.T, namespace, addon string) {
	patch := `{"metadata":{"annotations":{"` + api.RecordKeyPrefix + addon + `":null}}}`
	_, err := env.Clientset.CoreV1().Namespaces().Patch(framework.Context(t), namespace, types.MergePatchType, []byte(patch), metav1.PatchOptions{})
	assert.NoError(t, err)
}

// Prune, even with a spec that names no namespace, deletes only objects of the addon's inventory
// that left its manifest and that our field manager applied. Today's code prunes every object of
// the kind carrying the label, in every namespace.
func TestPruneDeletesOnlyWhatItApplied(t *testing.T) {
	const ns, other = "e2e-prune-own", "e2e-prune-other"
	createNamespace(t, ns)
	createNamespace(t, other)
	mem := &vfs.MemFS{}
	prune := map[string]*api.PruneSpec{"pruned": {Kinds: []api.PruneKindSpec{{Kind: "ConfigMap"}, {Kind: "Secret"}}}}
	v1 := configMap(ns, "keep", "pruned") + "---\n" + configMap(ns, "drop", "pruned")
	location := testChannel(t, mem, "prune-own", ns, [][2]string{{"pruned", v1}}, prune)
	run := kopsenv.Apply(t, env, location, mem, true)
	require.NoError(t, run.Err, run.Output)

	applyConfigMap(t, other, "drop", "pruned", "kops-channels")    // same kind, name, label and manager; other namespace
	applyConfigMap(t, ns, "not-listed", "pruned", "kops-channels") // not in the inventory
	applyConfigMap(t, ns, "someone-elses", "pruned", "someone-else")
	applySecret(t, ns, "user-data", "pruned", "kops-channels") // a pruned kind the addon never applied
	listInInventory(t, ns, "pruned", ns, "someone-elses")

	location = testChannel(t, mem, "prune-own", ns, [][2]string{{"pruned", configMap(ns, "keep", "pruned")}}, prune)
	run = kopsenv.Apply(t, env, location, mem, true)
	require.NoError(t, run.Err, run.Output)
	assert.Equal(t, apply.Applied, run.Outcomes()["pruned"])

	for _, o := range []struct {
		kind, namespace, name string
		survives              bool
	}{
		{"ConfigMap", ns, "keep", true},
		{"ConfigMap", ns, "drop", false},
		{"ConfigMap", other, "drop", true},
		{"ConfigMap", ns, "not-listed", true},
		{"ConfigMap", ns, "someone-elses", true},
		{"Secret", ns, "user-data", true},
	} {
		assert.Equal(t, o.survives, exists(t, o.kind, o.namespace, o.name), "%s %s/%s survives: %v", o.kind, o.namespace, o.name, o.survives)
	}
	rec, err := api.ParseChannelVersion(record(t, ns, "pruned"))
	require.NoError(t, err)
	refs, err := rec.Objects()
	require.NoError(t, err)
	assert.Contains(t, refs, api.ObjectRef{Kind: "ConfigMap", Namespace: ns, Name: "keep"})
	assert.NotContains(t, refs, api.ObjectRef{Kind: "ConfigMap", Namespace: ns, Name: "drop"}, "what was pruned leaves the inventory")
}

// An addon of many objects is recorded (compactly: the namespace's annotations are limited to
// 256 KiB in all), and retiring it deletes every one of them.
func TestLargeAddonIsRecordedAndRetired(t *testing.T) {
	const ns, count = "e2e-large-addon", 300
	createNamespace(t, ns)
	mem := &vfs.MemFS{}
	var docs []string
	for i := range count {
		docs = append(docs, configMap(ns, fmt.Sprintf("a-rather-long-generated-config-map-name-of-a-big-addon-%04d", i), "large"))
	}
	location := testChannel(t, mem, "large", ns, [][2]string{{"large", strings.Join(docs, "---\n")}, {"small", configMap(ns, "small", "small")}}, nil)
	run := kopsenv.Apply(t, env, location, mem, true)
	require.NoError(t, run.Err, run.Output)

	value := record(t, ns, "large")
	assert.Less(t, len(value), 8<<10, "the record of %d objects is compact", count)
	rec, err := api.ParseChannelVersion(value)
	require.NoError(t, err)
	refs, err := rec.Objects()
	require.NoError(t, err)
	assert.Len(t, refs, count)

	location = testChannel(t, mem, "large", ns, [][2]string{{"small", configMap(ns, "small", "small")}}, nil)
	run = kopsenv.Apply(t, env, location, mem, true)
	require.NoError(t, run.Err, run.Output)
	assert.Equal(t, apply.Retired, run.Outcomes()["large"])
	left, err := env.Clientset.CoreV1().ConfigMaps(ns).List(framework.Context(t), metav1.ListOptions{LabelSelector: addonLabel + "=large"})
	require.NoError(t, err)
	assert.Empty(t, left.Items)
	assert.True(t, exists(t, "ConfigMap", ns, "small"))
}
