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
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/restmapper"

	"k8s.io/kops/channels/pkg/apply"
	"k8s.io/kops/pkg/model/addons"
	"k8s.io/kops/tests/e2e/framework"
	"k8s.io/kops/tests/e2e/kopsenv"
	"k8s.io/kops/util/pkg/vfs"
)

// The built-in CoreDNS addon is really applied (not a server dry run): every object of the
// manifest exists afterwards, Service kube-dns has the clusterIP kops asked for, and a second run
// changes nothing.
func TestBuiltInCoreDNS(t *testing.T) {
	s := kopsenv.NewStore(t, "minimal")
	location := s.Update(t, "")

	dry := kopsenv.Apply(t, env, location, s.Mem, false)
	require.NoError(t, dry.Err)
	assert.Equal(t, apply.WouldApply, dry.Outcomes()["coredns.addons.k8s.io"])
	assert.Contains(t, dry.Output, "Must specify --yes to apply changes")
	assert.Zero(t, dry.Requests.Mutating(), "without --yes nothing is changed")

	first := kopsenv.Apply(t, env, location, s.Mem, true)
	require.NoError(t, first.Err, first.Output)
	assert.Equal(t, apply.Applied, first.Outcomes()["coredns.addons.k8s.io"])

	dyn, err := dynamic.NewForConfig(env.Config)
	require.NoError(t, err)
	groups, err := restmapper.GetAPIGroupResources(env.Clientset.Discovery())
	require.NoError(t, err)
	mapper := restmapper.NewDiscoveryRESTMapper(groups)
	ch, err := apply.ReadChannel(location, vfs.NewContext(s.Mem))
	require.NoError(t, err)
	for _, obj := range channelObjects(ch) {
		gvk := obj.GroupVersionKind()
		mapping, err := mapper.RESTMapping(gvk.GroupKind(), gvk.Version)
		require.NoError(t, err, gvk.String())
		var got interface{ GetLabels() map[string]string }
		if obj.GetNamespace() != "" {
			got, err = dyn.Resource(mapping.Resource).Namespace(obj.GetNamespace()).Get(framework.Context(t), obj.GetName(), metav1.GetOptions{})
		} else {
			got, err = dyn.Resource(mapping.Resource).Get(framework.Context(t), obj.GetName(), metav1.GetOptions{})
		}
		require.NoError(t, err, "%s %s/%s was not created", obj.GetKind(), obj.GetNamespace(), obj.GetName())
		// The default ServiceAccounts carry no addon label: nothing ever retires them.
		want := obj.addon
		if want == addons.ServiceAccountDefaultsAddonName {
			want = ""
		}
		assert.Equal(t, want, got.GetLabels()["addon.kops.k8s.io/name"], "%s %s/%s", obj.GetKind(), obj.GetNamespace(), obj.GetName())
	}

	svc, err := env.Clientset.CoreV1().Services("kube-system").Get(framework.Context(t), "kube-dns", metav1.GetOptions{})
	require.NoError(t, err)
	assert.Equal(t, "100.64.0.10", svc.Spec.ClusterIP)

	second := kopsenv.Apply(t, env, location, s.Mem, true)
	require.NoError(t, second.Err)
	assert.Equal(t, apply.Unchanged, second.Outcomes()["coredns.addons.k8s.io"])
	assert.Zero(t, second.Requests.Mutating(), "a re-apply with nothing changed sends no mutating request")

	// The record is kops's: kops's reader (a plain json.Unmarshal into its ChannelVersion) finds every
	// field kops writes; the inventory we add is ignored there.
	ns, err := env.Clientset.CoreV1().Namespaces().Get(framework.Context(t), "kube-system", metav1.GetOptions{})
	require.NoError(t, err)
	var kopsRecord struct {
		Version          *string `json:"version,omitempty"`
		Channel          *string `json:"channel,omitempty"`
		ID               string  `json:"id,omitempty"`
		ManifestHash     string  `json:"manifestHash,omitempty"`
		SystemGeneration int     `json:"systemGeneration,omitempty"`
	}
	raw := ns.Annotations["addons.k8s.io/coredns.addons.k8s.io"]
	require.NotEmpty(t, raw)
	require.NoError(t, json.Unmarshal([]byte(raw), &kopsRecord), raw)
	assert.Equal(t, "k8s-1.12", kopsRecord.ID)
	assert.Len(t, kopsRecord.ManifestHash, 64)
	assert.Equal(t, 1, kopsRecord.SystemGeneration)
	require.NotNil(t, kopsRecord.Channel)
	assert.Equal(t, location, *kopsRecord.Channel)
}

// addonObject is an object of a channel with the name of its addon.
type addonObject struct {
	*unstructured.Unstructured
	addon string
}

func channelObjects(ch *apply.Channel) []addonObject {
	var out []addonObject
	for _, a := range ch.Addons {
		for _, o := range a.Objects {
			out = append(out, addonObject{o, a.Spec.Name})
		}
	}
	return out
}
