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

package transition

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	appsv1ac "k8s.io/client-go/applyconfigurations/apps/v1"
	corev1ac "k8s.io/client-go/applyconfigurations/core/v1"
	metav1ac "k8s.io/client-go/applyconfigurations/meta/v1"
	rbacv1ac "k8s.io/client-go/applyconfigurations/rbac/v1"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/dynamic"

	channelsapi "k8s.io/kops/channels/pkg/api"
	"k8s.io/kops/channels/pkg/apply"
	"k8s.io/kops/pkg/apis/kops"
	"k8s.io/kops/pkg/model/addons"
	"k8s.io/kops/tests/e2e/framework"
	"k8s.io/kops/tests/e2e/kopsenv"
	"k8s.io/kops/util/pkg/vfs"
)

var env *framework.Env

// The server logs the delete requests it serves, so that the order of retirement can be checked.
func TestMain(m *testing.M) {
	framework.MainWith(m, framework.Options{AuditDeletes: true}, func(e *framework.Env) { env = e })
}

// identity of the objects that must survive every switch.
type identity struct {
	deploymentUID, serviceUID types.UID
	clusterIP                 string
}

func current(t *testing.T) identity {
	ctx := framework.Context(t)
	d, err := env.Clientset.AppsV1().Deployments("kube-system").Get(ctx, "coredns", metav1.GetOptions{})
	require.NoError(t, err, "Deployment coredns exists")
	s, err := env.Clientset.CoreV1().Services("kube-system").Get(ctx, "kube-dns", metav1.GetOptions{})
	require.NoError(t, err, "Service kube-dns exists")
	return identity{deploymentUID: d.UID, serviceUID: s.UID, clusterIP: s.Spec.ClusterIP}
}

func TestSwitchOperatorOnAndOff(t *testing.T) {
	s := kopsenv.NewStore(t, "minimal")
	builtIn := map[string]bool{"coredns.addons.k8s.io": true}
	operator := map[string]bool{"coredns-rbac.addons.k8s.io": true, scalingAddon: true, "operator.coredns.addons.x-k8s.io": true, "coredns.addons.x-k8s.io": true}

	location := s.Update(t, "")
	kopsRecords := onAKopsCluster(t, location, s.Mem)
	run := kopsenv.Apply(t, env, location, s.Mem, true)
	require.NoError(t, run.Err, run.Output)
	assert.Equal(t, map[string]apply.Outcome{
		"coredns.addons.k8s.io": apply.Applied, "networking.cilium.io": apply.LeftAlone, "kops-controller.addons.k8s.io": apply.LeftAlone,
	}, coreDNSOutcomes(t, run, apply.Applied), run.Output)
	first := current(t)
	assert.Equal(t, "100.64.0.10", first.clusterIP)
	assertOwnedOnly(t, union(builtIn, kopsRecords))
	// The autoscaler and the budget, made once by the built-in addon, are the same objects after
	// every switch: moved between addons in place, never deleted and made again.
	scaling := scalingUIDs(t, "coredns.addons.k8s.io")
	assertScalesCoreDNS(t)
	// The count the autoscaler sets survives every switch: no addon writes it.
	count := scaleAsAutoscaler(t)

	unchanged := map[string]apply.Outcome{
		"coredns.addons.k8s.io": apply.Unchanged, "networking.cilium.io": apply.LeftAlone, "kops-controller.addons.k8s.io": apply.LeftAlone,
	}
	steps := []struct {
		name     string
		flags    string
		mode     string
		outcomes map[string]apply.Outcome
		owners   map[string]bool
		owner    string
	}{
		// Client-side mode writes the built-in addon's very objects: nothing to apply.
		{"built in to client-side", flagsOn, kops.OperatorModeClientSide, unchanged, builtIn, "coredns.addons.k8s.io"},
		{"client-side to server-side", flagsOn, kops.OperatorModeServerSide, map[string]apply.Outcome{
			"coredns-rbac.addons.k8s.io": apply.Applied, scalingAddon: apply.Applied, "operator.coredns.addons.x-k8s.io": apply.Applied,
			"coredns.addons.x-k8s.io": apply.Applied, "coredns.addons.k8s.io": apply.Retired,
			"networking.cilium.io": apply.LeftAlone, "kops-controller.addons.k8s.io": apply.LeftAlone,
		}, operator, "coredns.addons.x-k8s.io"},
		{"server-side to client-side", flagsOn, kops.OperatorModeClientSide, map[string]apply.Outcome{
			"coredns.addons.k8s.io": apply.Applied, "coredns-rbac.addons.k8s.io": apply.Retired, scalingAddon: apply.Retired,
			"operator.coredns.addons.x-k8s.io": apply.Retired, "coredns.addons.x-k8s.io": apply.Retired,
			"networking.cilium.io": apply.LeftAlone, "kops-controller.addons.k8s.io": apply.LeftAlone,
		}, builtIn, "coredns.addons.k8s.io"},
		// Without the flags operatorMode is ignored (with a warning): built in, the same objects.
		{"client-side to built in", "", kops.OperatorModeClientSide, unchanged, builtIn, "coredns.addons.k8s.io"},
		{"operator on", flagsOn, "", map[string]apply.Outcome{
			"coredns-rbac.addons.k8s.io": apply.Applied, scalingAddon: apply.Applied, "operator.coredns.addons.x-k8s.io": apply.Applied,
			"coredns.addons.x-k8s.io": apply.Applied, "coredns.addons.k8s.io": apply.Retired,
			"networking.cilium.io": apply.LeftAlone, "kops-controller.addons.k8s.io": apply.LeftAlone,
		}, operator, "coredns.addons.x-k8s.io"},
		{"operator off", "", "", map[string]apply.Outcome{
			"coredns.addons.k8s.io": apply.Applied, "coredns-rbac.addons.k8s.io": apply.Retired, scalingAddon: apply.Retired,
			"operator.coredns.addons.x-k8s.io": apply.Retired, "coredns.addons.x-k8s.io": apply.Retired,
			"networking.cilium.io": apply.LeftAlone, "kops-controller.addons.k8s.io": apply.LeftAlone,
		}, builtIn, "coredns.addons.k8s.io"},
	}
	for _, step := range steps {
		t.Run(step.name, func(t *testing.T) {
			s.SetOperatorMode(t, step.mode)
			location := s.Update(t, step.flags)
			dry := kopsenv.Apply(t, env, location, s.Mem, false)
			require.NoError(t, dry.Err)
			assert.Zero(t, dry.Requests.Mutating())

			deletes := env.DeleteLog(t)
			run := kopsenv.Apply(t, env, location, s.Mem, true)
			require.NoError(t, run.Err, run.Output)
			var retiredObject []string
			if step.outcomes["coredns.addons.x-k8s.io"] == apply.Retired {
				retiredObject = []string{"corednses kube-system/coredns"}
			}
			assert.Equal(t, retiredObject, kopsenv.CollectOrphans(t, env),
				"the CoreDNS object, retired, is deleted orphaning its dependents: the garbage collector must not take DNS down with it")
			assert.Equal(t, step.outcomes, coreDNSOutcomes(t, run, apply.Unchanged), run.Output)
			assertPolicyGoesLast(t, deletes.Deletions(t), step.outcomes[operatorAddon] == apply.Retired)

			assert.Equal(t, first, current(t), "Deployment coredns and Service kube-dns keep their identity and cluster IP")
			d, err := env.Clientset.AppsV1().Deployments("kube-system").Get(framework.Context(t), "coredns", metav1.GetOptions{})
			require.NoError(t, err)
			assert.Equal(t, step.owner, d.Labels["addon.kops.k8s.io/name"])
			assert.Contains(t, inventory(t, step.owner), channelsapi.ObjectRef{Group: "apps", Kind: "Deployment", Namespace: "kube-system", Name: "coredns"},
				"the Deployment is in the inventory of the addon that owns it now, so that retiring that addon can delete it")
			assertOwnedOnly(t, union(step.owners, kopsRecords))
			scalingOwner := "coredns.addons.k8s.io"
			if step.owners[scalingAddon] {
				scalingOwner = scalingAddon
			}
			assert.Equal(t, scaling, scalingUIDs(t, scalingOwner), "the autoscaler's objects and the budget are the same objects")
			assertScalesCoreDNS(t)
			assert.Equal(t, count, replicasOf(t), "the switch keeps the replica count the autoscaler set")
			count = scaleAsAutoscaler(t)

			again := kopsenv.Apply(t, env, location, s.Mem, true)
			require.NoError(t, again.Err)
			assert.Zero(t, again.Requests.Mutating(), "a second apply changes nothing")
		})
	}

	// kops's addons, which our channel does not ship, were never touched.
	ctx := framework.Context(t)
	ns, err := env.Clientset.CoreV1().Namespaces().Get(ctx, "kube-system", metav1.GetOptions{})
	require.NoError(t, err)
	for name, value := range kopsRecords {
		assert.Equal(t, value, ns.Annotations[channelsapi.RecordKeyPrefix+name], "kops's record of %s is untouched", name)
	}
	_, err = env.Clientset.CoreV1().Secrets("team-a").Get(ctx, "user-data", metav1.GetOptions{})
	assert.NoError(t, err, "Secret team-a/user-data survives")
	_, err = env.Clientset.RbacV1().ClusterRoleBindings().Get(ctx, "someone-elses", metav1.GetOptions{})
	assert.NoError(t, err, "ClusterRoleBinding someone-elses survives")
	_, err = env.Clientset.AppsV1().Deployments("kube-system").Get(ctx, "kops-controller", metav1.GetOptions{})
	assert.NoError(t, err, "Deployment kube-system/kops-controller survives")

	// The operator's leftovers are gone, except its namespace and CRD, which are never deleted.
	_, err = env.Clientset.AppsV1().Deployments("coredns-operator-system").Get(ctx, "coredns-operator", metav1.GetOptions{})
	assert.True(t, apierrors.IsNotFound(err), "operator Deployment removed: %v", err)
	_, err = env.Clientset.AdmissionregistrationV1().ValidatingAdmissionPolicies().Get(ctx, "coredns-operator-scope", metav1.GetOptions{})
	assert.True(t, apierrors.IsNotFound(err), "admission policy removed: %v", err)
	_, err = env.Clientset.AppsV1().Deployments("kube-system").Get(ctx, "coredns-autoscaler", metav1.GetOptions{})
	assert.NoError(t, err, "the built-in autoscaler is back")
}

// inventory lists the objects of an addon's record in kube-system.
func inventory(t *testing.T, addon string) []channelsapi.ObjectRef {
	t.Helper()
	ns, err := env.Clientset.CoreV1().Namespaces().Get(framework.Context(t), "kube-system", metav1.GetOptions{})
	require.NoError(t, err)
	rec, err := channelsapi.ParseChannelVersion(ns.Annotations[channelsapi.RecordKeyPrefix+addon])
	require.NoError(t, err)
	refs, err := rec.Objects()
	require.NoError(t, err)
	return refs
}

// onAKopsCluster makes the cluster look like one kops's own channels has managed from the same
// channel location (kops and we share <configBase>/addons/bootstrap-channel.yaml): a record in kops's
// format for the built-in CoreDNS addon, records for two addons our channel does not ship, and
// objects carrying those two addons' labels, some even applied through our field manager. It
// returns the records of the addons we do not ship.
func onAKopsCluster(t *testing.T, location string, mem *vfs.MemFS) map[string]string {
	t.Helper()
	ctx := framework.Context(t)
	ch, err := apply.ReadChannel(location, vfs.NewContext(mem))
	require.NoError(t, err)
	kopsRecord := func(id, hash string) string {
		return fmt.Sprintf(`{"channel":%q,"id":%q,"manifestHash":%q,"systemGeneration":1}`, location, id, hash)
	}
	records := map[string]string{
		"networking.cilium.io":          kopsRecord("k8s-1.16", "4f1c"),
		"kops-controller.addons.k8s.io": kopsRecord("k8s-1.16", "9d2e"),
	}
	annotations := map[string]interface{}{}
	for name, value := range records {
		annotations[channelsapi.RecordKeyPrefix+name] = value
	}
	for _, a := range ch.Addons {
		annotations[channelsapi.RecordKeyPrefix+a.Spec.Name] = kopsRecord(a.Spec.ID, a.Spec.ManifestHash)
	}
	patch, err := json.Marshal(map[string]interface{}{"metadata": map[string]interface{}{"annotations": annotations}})
	require.NoError(t, err)
	_, err = env.Clientset.CoreV1().Namespaces().Patch(ctx, "kube-system", types.MergePatchType, patch, metav1.PatchOptions{})
	require.NoError(t, err)

	_, err = env.Clientset.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "team-a"}}, metav1.CreateOptions{})
	require.NoError(t, err)
	cilium := map[string]string{"addon.kops.k8s.io/name": "networking.cilium.io"}
	_, err = env.Clientset.CoreV1().Secrets("team-a").Apply(ctx, corev1ac.Secret("user-data", "team-a").WithLabels(cilium).
		WithStringData(map[string]string{"password": "x"}), metav1.ApplyOptions{FieldManager: "kops-channels", Force: true})
	require.NoError(t, err)
	_, err = env.Clientset.RbacV1().ClusterRoleBindings().Apply(ctx, rbacv1ac.ClusterRoleBinding("someone-elses").WithLabels(cilium).
		WithRoleRef(rbacv1ac.RoleRef().WithAPIGroup("rbac.authorization.k8s.io").WithKind("ClusterRole").WithName("view")).
		WithSubjects(rbacv1ac.Subject().WithKind("User").WithName("someone")), metav1.ApplyOptions{FieldManager: "kubectl", Force: true})
	require.NoError(t, err)
	labels := map[string]string{"addon.kops.k8s.io/name": "kops-controller.addons.k8s.io", "k8s-app": "kops-controller"}
	_, err = env.Clientset.AppsV1().Deployments("kube-system").Apply(ctx, appsv1ac.Deployment("kops-controller", "kube-system").WithLabels(labels).
		WithSpec(appsv1ac.DeploymentSpec().WithSelector(metav1ac.LabelSelector().WithMatchLabels(labels)).
			WithTemplate(corev1ac.PodTemplateSpec().WithLabels(labels).WithSpec(corev1ac.PodSpec().
				WithContainers(corev1ac.Container().WithName("kops-controller").WithImage("example.invalid/kops-controller:1.30.0"))))),
		metav1.ApplyOptions{FieldManager: "kops-channels", Force: true})
	require.NoError(t, err)
	return records
}

func union[V any](a map[string]bool, b map[string]V) map[string]bool {
	out := map[string]bool{}
	for k := range a {
		out[k] = true
	}
	for k := range b {
		out[k] = true
	}
	return out
}

// coreDNSOutcomes are the outcomes of a run but that of the default ServiceAccounts' addon, which
// is in every channel whatever CoreDNS runs as, and must be accounts.
func coreDNSOutcomes(t *testing.T, run *kopsenv.Applied, accounts apply.Outcome) map[string]apply.Outcome {
	t.Helper()
	out := run.Outcomes()
	assert.Equal(t, accounts, out[addons.ServiceAccountDefaultsAddonName], run.Output)
	delete(out, addons.ServiceAccountDefaultsAddonName)
	return out
}

// assertOwnedOnly checks that every object carrying an addon label belongs to an addon in the
// channel: nothing is left behind that no addon owns. Namespaces and CRDs are never deleted (that
// would take everything in them along) and are not counted. Neither are objects being deleted: a
// custom resource is deleted orphaning its dependents, and the garbage collector (played here by
// kopsenv.CollectOrphans) finishes that.
func assertOwnedOnly(t *testing.T, owners map[string]bool) {
	t.Helper()
	disc, err := discovery.NewDiscoveryClientForConfig(env.Config)
	require.NoError(t, err)
	dyn, err := dynamic.NewForConfig(env.Config)
	require.NoError(t, err)
	lists, err := disc.ServerPreferredResources()
	require.NoError(t, err)
	for _, list := range lists {
		gv, err := schema.ParseGroupVersion(list.GroupVersion)
		require.NoError(t, err)
		for _, r := range list.APIResources {
			if strings.Contains(r.Name, "/") || !contains(r.Verbs, "list") {
				continue
			}
			if r.Name == "namespaces" || r.Name == "customresourcedefinitions" {
				continue
			}
			items, err := dyn.Resource(gv.WithResource(r.Name)).List(framework.Context(t), metav1.ListOptions{LabelSelector: "addon.kops.k8s.io/name"})
			require.NoError(t, err)
			for _, o := range items.Items {
				if o.GetDeletionTimestamp() != nil {
					continue
				}
				owner := o.GetLabels()["addon.kops.k8s.io/name"]
				assert.True(t, owners[owner], "%s %s/%s belongs to %s, which is not in the channel", o.GetKind(), o.GetNamespace(), o.GetName(), owner)
			}
		}
	}
}

func contains(verbs metav1.Verbs, want string) bool {
	for _, v := range verbs {
		if v == want {
			return true
		}
	}
	return false
}
