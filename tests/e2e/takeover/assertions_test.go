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

package takeover

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/types"

	channelsapi "k8s.io/kops/channels/pkg/api"
	"k8s.io/kops/channels/pkg/apply"
	"k8s.io/kops/tests/e2e/framework"
	"k8s.io/kops/tests/e2e/kopsenv"
	"k8s.io/kops/util/pkg/vfs"
)

// assertOnePDB checks that exactly one PodDisruptionBudget, anywhere, selects the CoreDNS pods,
// kube-system/kube-dns, and that owner holds it.
func assertOnePDB(t *testing.T, owner string) {
	t.Helper()
	pdbs, err := env.Clientset.PolicyV1().PodDisruptionBudgets("").List(framework.Context(t), metav1.ListOptions{})
	require.NoError(t, err)
	pods := labels.Set{"k8s-app": "kube-dns"}
	var over []string
	for _, p := range pdbs.Items {
		sel, err := metav1.LabelSelectorAsSelector(p.Spec.Selector)
		require.NoError(t, err)
		if sel.Matches(pods) {
			over = append(over, p.Namespace+"/"+p.Name)
			assert.Equal(t, owner, p.Labels[channelsapi.LabelAddonName])
		}
	}
	assert.Equal(t, []string{"kube-system/kube-dns"}, over, "one budget over the CoreDNS pods, or the eviction API refuses to evict them")
}

func assertImage(t *testing.T, deployment, container, want string) {
	t.Helper()
	d, err := env.Clientset.AppsV1().Deployments("kube-system").Get(framework.Context(t), deployment, metav1.GetOptions{})
	require.NoError(t, err)
	for _, c := range d.Spec.Template.Spec.Containers {
		if c.Name == container {
			assert.Equal(t, want, c.Image, "Deployment %s container %s", deployment, container)
			return
		}
	}
	t.Errorf("Deployment %s has no container %s", deployment, container)
}

// assertAutoscalerConfined checks with SubjectAccessReviews what kops's autoscaler identity may do
// after the takeover, with the built-in addon or beside the operator: scale Deployment coredns and
// count nodes, never scale another workload or create ConfigMaps (kops's broader rules are gone).
func assertAutoscalerConfined(t *testing.T) {
	t.Helper()
	user, groups := framework.ServiceAccountUser("kube-system", "coredns-autoscaler")
	cases := []struct {
		verb, group, resource, sub, ns, name string
		want                                 bool
	}{
		{"update", "apps", "deployments", "scale", "kube-system", "coredns", true},
		{"update", "apps", "deployments", "scale", "kube-system", "dns-controller", false},
		{"update", "apps", "deployments", "scale", "default", "web", false},
		{"update", "apps", "replicasets", "scale", "default", "web", false},
		{"update", "", "replicationcontrollers", "scale", "default", "web", false},
		{"create", "", "configmaps", "", "kube-system", "", false},
		{"create", "", "configmaps", "", "default", "", false},
		{"list", "", "nodes", "", "", "", true},
	}
	for _, c := range cases {
		allowed, reason, err := env.SubjectAccessReview(user, groups, c.verb, c.group, c.resource, c.sub, c.ns, c.name)
		require.NoError(t, err)
		assert.Equal(t, c.want, allowed, "%s %s/%s %s/%s: %s", c.verb, c.resource, c.sub, c.ns, c.name, reason)
	}
}

// assertNothingUnlisted checks that every object labelled for a CoreDNS addon, by either of kops's
// labels, is in the inventory of an addon our records hold: nothing kops made is orphaned.
func assertNothingUnlisted(t *testing.T) {
	t.Helper()
	ctx := framework.Context(t)
	ns, err := env.Clientset.CoreV1().Namespaces().Get(ctx, "kube-system", metav1.GetOptions{})
	require.NoError(t, err)
	listed := map[channelsapi.ObjectRef]bool{}
	for key, value := range ns.Annotations {
		if !strings.HasPrefix(key, channelsapi.RecordKeyPrefix) {
			continue
		}
		rec, err := channelsapi.ParseChannelVersion(value)
		require.NoError(t, err)
		refs, err := rec.Objects()
		require.NoError(t, err)
		for _, r := range refs {
			listed[r] = true
		}
	}
	for kind, gvr := range resources {
		for _, selector := range []string{channelsapi.LabelAddonName + " in (coredns.addons.k8s.io,coredns.addons.x-k8s.io,coredns-rbac.addons.k8s.io," + scalingAddon + ")", "k8s-addon=coredns.addons.k8s.io"} {
			items, err := dyn(t).Resource(gvr).List(ctx, metav1.ListOptions{LabelSelector: selector})
			require.NoError(t, err)
			for _, o := range items.Items {
				ref := channelsapi.ObjectRef{Group: gvr.Group, Kind: kind, Namespace: o.GetNamespace(), Name: o.GetName()}
				assert.True(t, listed[ref], "%s %s/%s is labelled for CoreDNS but no addon lists it", kind, o.GetNamespace(), o.GetName())
			}
		}
	}
}

// kopsRecordFormat is the record as kops's channels reads it: a plain JSON decode into its fields.
type kopsRecordFormat struct {
	Version          *string `json:"version,omitempty"`
	Channel          *string `json:"channel,omitempty"`
	ID               string  `json:"id,omitempty"`
	ManifestHash     string  `json:"manifestHash,omitempty"`
	SystemGeneration int     `json:"systemGeneration,omitempty"`
}

// assertRecordReadableByBoth reads addon's record the way kops does and the way we do: both see
// this channel, the addon's id and hash; ours also sees its inventory.
func assertRecordReadableByBoth(t *testing.T, location, addon string, s *kopsenv.Store) {
	t.Helper()
	ns, err := env.Clientset.CoreV1().Namespaces().Get(framework.Context(t), "kube-system", metav1.GetOptions{})
	require.NoError(t, err)
	value := ns.Annotations[channelsapi.RecordKeyPrefix+addon]
	require.NotEmpty(t, value, "record of %s", addon)

	ch, err := apply.ReadChannel(location, vfs.NewContext(s.Mem))
	require.NoError(t, err)
	var spec *apply.Addon
	for _, a := range ch.Addons {
		if a.Spec.Name == addon {
			spec = a
		}
	}
	require.NotNil(t, spec, "%s is in the channel", addon)

	var kops kopsRecordFormat
	require.NoError(t, json.Unmarshal([]byte(value), &kops))
	require.NotNil(t, kops.Channel)
	assert.Equal(t, location, *kops.Channel)
	assert.Equal(t, spec.Spec.ID, kops.ID)
	assert.Equal(t, spec.Spec.ManifestHash, kops.ManifestHash)
	assert.Equal(t, apply.SystemGeneration, kops.SystemGeneration)

	ours, err := channelsapi.ParseChannelVersion(value)
	require.NoError(t, err)
	assert.True(t, ours.Ours("kops-channels"))
	refs, err := ours.Objects()
	require.NoError(t, err)
	assert.Contains(t, refs, channelsapi.ObjectRef{Group: "apps", Kind: "Deployment", Namespace: "kube-system", Name: "coredns"})
}

func assertRecord(t *testing.T, addon, want string) {
	t.Helper()
	ns, err := env.Clientset.CoreV1().Namespaces().Get(framework.Context(t), "kube-system", metav1.GetOptions{})
	require.NoError(t, err)
	assert.Equal(t, want, ns.Annotations[channelsapi.RecordKeyPrefix+addon], "record of %s", addon)
}

// assertNotOursUntouched checks that the addon our channel does not ship kept its record and its
// Deployment, still kops's alone.
func assertNotOursUntouched(t *testing.T, record string) {
	t.Helper()
	assertRecord(t, notOurs, record)
	d, err := env.Clientset.AppsV1().Deployments("kube-system").Get(framework.Context(t), "dns-controller", metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		t.Fatal("Deployment dns-controller of an addon we do not ship was deleted")
	}
	require.NoError(t, err)
	assert.Equal(t, notOurs, d.Labels[channelsapi.LabelAddonName])
	for _, mf := range d.ManagedFields {
		assert.Equal(t, kopsManager, mf.Manager, "nothing but kops's channels wrote it")
	}
}

// scalingUIDs are the UIDs of kops's autoscaler objects and CoreDNS budget (those of the fixture's
// kinds that exist), keyed "Kind name".
func scalingUIDs(t *testing.T) map[string]types.UID {
	t.Helper()
	ctx := framework.Context(t)
	out := map[string]types.UID{}
	for _, o := range []struct{ kind, ns, name string }{
		{"PodDisruptionBudget", "kube-system", "kube-dns"}, {"ServiceAccount", "kube-system", "coredns-autoscaler"},
		{"ClusterRole", "", "coredns-autoscaler"}, {"ClusterRoleBinding", "", "coredns-autoscaler"},
		{"ConfigMap", "kube-system", "coredns-autoscaler"}, {"Deployment", "kube-system", "coredns-autoscaler"},
	} {
		obj, err := client(t, o.kind, o.ns).Get(ctx, o.name, metav1.GetOptions{})
		require.NoError(t, err, "%s %s", o.kind, o.name)
		out[o.kind+" "+o.name] = obj.GetUID()
	}
	return out
}
