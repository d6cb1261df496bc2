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
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	authorizationv1 "k8s.io/api/authorization/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"

	channelsapi "k8s.io/kops/channels/pkg/api"
	corednsmodel "k8s.io/kops/pkg/addons/coredns/kopsmodel"
	"k8s.io/kops/tests/e2e/framework"
)

// scalingAddon holds CoreDNS's autoscaler and PodDisruptionBudget when the operator runs CoreDNS:
// the operator may not write them, so kops does.
const scalingAddon = "coredns-scaling.addons.k8s.io"

// scalingObjects are the autoscaler's objects and CoreDNS's PodDisruptionBudget: in every mode
// the same objects, moved between addons in place.
var scalingObjects = []struct {
	kind      string
	gvr       schema.GroupVersionResource
	namespace string
}{
	{"PodDisruptionBudget", schema.GroupVersionResource{Group: "policy", Version: "v1", Resource: "poddisruptionbudgets"}, "kube-system"},
	{"ServiceAccount", schema.GroupVersionResource{Version: "v1", Resource: "serviceaccounts"}, "kube-system"},
	{"ClusterRole", schema.GroupVersionResource{Group: "rbac.authorization.k8s.io", Version: "v1", Resource: "clusterroles"}, ""},
	{"ClusterRoleBinding", schema.GroupVersionResource{Group: "rbac.authorization.k8s.io", Version: "v1", Resource: "clusterrolebindings"}, ""},
	{"Role", schema.GroupVersionResource{Group: "rbac.authorization.k8s.io", Version: "v1", Resource: "roles"}, "kube-system"},
	{"RoleBinding", schema.GroupVersionResource{Group: "rbac.authorization.k8s.io", Version: "v1", Resource: "rolebindings"}, "kube-system"},
	{"ConfigMap", schema.GroupVersionResource{Version: "v1", Resource: "configmaps"}, "kube-system"},
	{"Deployment", schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"}, "kube-system"},
}

// scalingName is the name of every scaling object but the budget, which has kops's name.
func scalingName(kind string) string {
	if kind == "PodDisruptionBudget" {
		return "kube-dns"
	}
	return "coredns-autoscaler"
}

// scalingUIDs reads the UID of every scaling object, requiring each to exist, and checks that each
// is labelled for owner and listed in owner's inventory (so that retiring owner deletes it).
func scalingUIDs(t *testing.T, owner string) map[string]types.UID {
	t.Helper()
	dyn, err := dynamic.NewForConfig(env.Config)
	require.NoError(t, err)
	listed := map[channelsapi.ObjectRef]bool{}
	ns, err := env.Clientset.CoreV1().Namespaces().Get(framework.Context(t), "kube-system", metav1.GetOptions{})
	require.NoError(t, err)
	if value, ok := ns.Annotations[channelsapi.RecordKeyPrefix+owner]; assert.True(t, ok, "%s is recorded", owner) {
		rec, err := channelsapi.ParseChannelVersion(value)
		require.NoError(t, err)
		refs, err := rec.Objects()
		require.NoError(t, err)
		for _, r := range refs {
			listed[r] = true
		}
	}
	uids := map[string]types.UID{}
	for _, o := range scalingObjects {
		name := scalingName(o.kind)
		key := o.kind + " " + strings.TrimPrefix(o.namespace+"/"+name, "/")
		var client dynamic.ResourceInterface = dyn.Resource(o.gvr)
		if o.namespace != "" {
			client = dyn.Resource(o.gvr).Namespace(o.namespace)
		}
		obj, err := client.Get(framework.Context(t), name, metav1.GetOptions{})
		if !assert.NoError(t, err, "%s exists", key) {
			continue
		}
		uids[key] = obj.GetUID()
		assert.Equal(t, owner, obj.GetLabels()[channelsapi.LabelAddonName], "%s belongs to %s", key, owner)
		assert.True(t, listed[channelsapi.ObjectRef{Group: o.gvr.Group, Kind: o.kind, Namespace: o.namespace, Name: name}],
			"%s is in the inventory of %s", key, owner)
	}
	return uids
}

// assertScalesCoreDNS checks that exactly one autoscaler and one budget look after the CoreDNS pods,
// and that the autoscaler's identity may scale Deployment coredns and do nothing else.
func assertScalesCoreDNS(t *testing.T) {
	t.Helper()
	ctx := framework.Context(t)
	deployments, err := env.Clientset.AppsV1().Deployments("").List(ctx, metav1.ListOptions{})
	require.NoError(t, err)
	var autoscalers []string
	for _, d := range deployments.Items {
		for _, c := range d.Spec.Template.Spec.Containers {
			if strings.Contains(c.Image, "cluster-proportional-autoscaler") || strings.Contains(strings.Join(append(c.Command, c.Args...), " "), "--target=deployment/coredns") {
				autoscalers = append(autoscalers, d.Namespace+"/"+d.Name)
			}
		}
	}
	assert.Equal(t, []string{"kube-system/coredns-autoscaler"}, autoscalers, "one autoscaler of CoreDNS, never none or two")

	pdbs, err := env.Clientset.PolicyV1().PodDisruptionBudgets("").List(ctx, metav1.ListOptions{})
	require.NoError(t, err)
	var budgets []string
	for _, p := range pdbs.Items {
		sel, err := metav1.LabelSelectorAsSelector(p.Spec.Selector)
		require.NoError(t, err)
		if sel.Matches(labels.Set{"k8s-app": "kube-dns"}) {
			budgets = append(budgets, p.Namespace+"/"+p.Name)
		}
	}
	sort.Strings(budgets)
	assert.Equal(t, []string{"kube-system/kube-dns"}, budgets, "one budget over the CoreDNS pods")

	assertAutoscalerRights(t)
}

// autoscalerRights are all the autoscaler's identity may do, as "verb group/resource name" (group
// "core" for the core API group, name "*" for any), per namespace: count nodes, read its parameters
// and scale Deployment coredns, no more. The rights every authenticated user has (reviewing its own
// access) are left out.
var autoscalerRights = map[string][]string{
	"kube-system": {
		"get apps/deployments coredns",
		"get apps/deployments/scale coredns", "patch apps/deployments/scale coredns", "update apps/deployments/scale coredns",
		"get core/configmaps coredns-autoscaler",
		"list core/nodes *", "watch core/nodes *",
	},
	"default": {"list core/nodes *", "watch core/nodes *"},
}

// rulesOf flattens rules to "verb group/resource name" strings, without the self-review rights
// every authenticated user holds.
func rulesOf(rules []authorizationv1.ResourceRule) []string {
	var out []string
	for _, r := range rules {
		names := r.ResourceNames
		if len(names) == 0 {
			names = []string{"*"}
		}
		for _, g := range r.APIGroups {
			if g == "authorization.k8s.io" || g == "authentication.k8s.io" {
				continue
			}
			if g == "" {
				g = "core"
			}
			for _, res := range r.Resources {
				for _, v := range r.Verbs {
					for _, n := range names {
						out = append(out, v+" "+g+"/"+res+" "+n)
					}
				}
			}
		}
	}
	sort.Strings(out)
	return out
}

// assertAutoscalerRights checks, as the autoscaler's identity (impersonated: the server authorizes
// each request as that ServiceAccount), that its rights are exactly autoscalerRights (the server's
// own review of its rules), that SubjectAccessReviews agree, and that the writes it would need for
// anything else are refused (sent as dry runs, so that nothing changes should one pass).
func assertAutoscalerRights(t *testing.T) {
	t.Helper()
	ctx := framework.Context(t)
	as, err := kubernetes.NewForConfig(env.ServiceAccountConfig("kube-system", "coredns-autoscaler"))
	require.NoError(t, err)
	for ns, want := range autoscalerRights {
		review, err := as.AuthorizationV1().SelfSubjectRulesReviews().Create(ctx,
			&authorizationv1.SelfSubjectRulesReview{Spec: authorizationv1.SelfSubjectRulesReviewSpec{Namespace: ns}}, metav1.CreateOptions{})
		require.NoError(t, err)
		require.False(t, review.Status.Incomplete, review.Status.EvaluationError)
		got := rulesOf(review.Status.ResourceRules)
		sort.Strings(want)
		assert.Equal(t, want, got, "everything the autoscaler may do in %s", ns)
	}

	user, groups := framework.ServiceAccountUser("kube-system", "coredns-autoscaler")
	for _, c := range []struct {
		verb, group, resource, sub, ns, name string
		want                                 bool
	}{
		{"update", "apps", "deployments", "scale", "kube-system", "coredns", true},
		{"update", "apps", "deployments", "scale", "kube-system", "coredns-autoscaler", false},
		{"update", "apps", "deployments", "scale", "kube-system", "coredns-operator", false},
		{"update", "apps", "deployments", "", "kube-system", "coredns", false},
		{"update", "apps", "replicasets", "scale", "kube-system", "coredns", false},
		{"update", "", "configmaps", "", "kube-system", "coredns-autoscaler", false},
		{"create", "", "configmaps", "", "kube-system", "", false},
	} {
		allowed, reason, err := env.SubjectAccessReview(user, groups, c.verb, c.group, c.resource, c.sub, c.ns, c.name)
		require.NoError(t, err)
		assert.Equal(t, c.want, allowed, "%s %s/%s/%s %s/%s: %s", c.verb, c.group, c.resource, c.sub, c.ns, c.name, reason)
	}

	dry := []string{metav1.DryRunAll}
	replicas := []byte(`{"spec":{"replicas":2}}`)
	deployments := as.AppsV1().Deployments("kube-system")
	refused := map[string]error{}
	_, refused["scale Deployment coredns-autoscaler"] = deployments.Patch(ctx, "coredns-autoscaler", types.MergePatchType, replicas, metav1.PatchOptions{DryRun: dry}, "scale")
	// Through the Deployment itself it could change CoreDNS's pods, not only their count.
	_, refused["patch Deployment coredns"] = deployments.Patch(ctx, "coredns", types.MergePatchType, replicas, metav1.PatchOptions{DryRun: dry})
	refused["delete Deployment coredns"] = deployments.Delete(ctx, "coredns", metav1.DeleteOptions{DryRun: dry})
	// Its parameters bound the count it sets (with the operator, to what the operator's policy
	// admits): it reads them and may not raise the bound.
	_, refused["patch ConfigMap coredns-autoscaler"] = as.CoreV1().ConfigMaps("kube-system").Patch(ctx, "coredns-autoscaler",
		types.MergePatchType, []byte(`{"data":{"linear":"{\"min\":500}"}}`), metav1.PatchOptions{DryRun: dry})
	_, refused["create ConfigMap"] = as.CoreV1().ConfigMaps("kube-system").Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "autoscaler-probe"}}, metav1.CreateOptions{DryRun: dry})
	for what, err := range refused {
		assert.True(t, apierrors.IsForbidden(err), "the autoscaler may not %s: %v", what, err)
	}
}

// scaleAsAutoscaler sets the replica count of Deployment coredns as the autoscaler does, through the
// scale subresource under its identity, to one more than it has (within what the operator's
// admission policy admits, which does not apply to the autoscaler but to the operator's writes
// after it), and returns the count set.
func scaleAsAutoscaler(t *testing.T) int32 {
	t.Helper()
	ctx := framework.Context(t)
	as, err := kubernetes.NewForConfig(env.ServiceAccountConfig("kube-system", "coredns-autoscaler"))
	require.NoError(t, err)
	deployments := as.AppsV1().Deployments("kube-system")
	scale, err := deployments.GetScale(ctx, "coredns", metav1.GetOptions{})
	require.NoError(t, err, "the autoscaler reads the count")
	scale.Spec.Replicas = scale.Spec.Replicas%corednsmodel.MaxReplicas + 1
	_, err = deployments.UpdateScale(ctx, "coredns", scale, metav1.UpdateOptions{})
	require.NoError(t, err, "the autoscaler sets the count")
	d, err := env.Clientset.AppsV1().Deployments("kube-system").Get(ctx, "coredns", metav1.GetOptions{})
	require.NoError(t, err)
	require.NotNil(t, d.Spec.Replicas)
	assert.Equal(t, scale.Spec.Replicas, *d.Spec.Replicas)
	return scale.Spec.Replicas
}

// replicasOf is the replica count of Deployment coredns.
func replicasOf(t *testing.T) int32 {
	t.Helper()
	d, err := env.Clientset.AppsV1().Deployments("kube-system").Get(framework.Context(t), "coredns", metav1.GetOptions{})
	require.NoError(t, err)
	require.NotNil(t, d.Spec.Replicas)
	return *d.Spec.Replicas
}
