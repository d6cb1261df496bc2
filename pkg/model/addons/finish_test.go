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

package addons

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	channelsapi "k8s.io/kops/channels/pkg/api"
	"k8s.io/kops/pkg/apis/kops"
	"k8s.io/kops/pkg/assets"
	"k8s.io/kops/pkg/featureflag"
	"k8s.io/kops/pkg/model"
	"k8s.io/kops/pkg/model/addonapi"
)

func mirror(t *testing.T) *assets.Remapper {
	r, err := assets.NewRemapper(&kops.AssetsSpec{ContainerRegistry: "mirror.example.com/m"})
	require.NoError(t, err)
	return r
}

func workload(kind string, pod []string, image string) *unstructured.Unstructured {
	u := object("apps/v1", kind, "w")
	_ = unstructured.SetNestedSlice(u.Object, []interface{}{map[string]interface{}{"name": "c", "image": image}}, append(pod, "containers")...)
	return u
}

// Every workload kind's images are remapped, once (remapping is idempotent), and every object is
// labelled, whatever it is.
func TestFinishObject(t *testing.T) {
	for _, tc := range []struct {
		kind string
		pod  []string
	}{
		{"Deployment", []string{"spec", "template", "spec"}},
		{"DaemonSet", []string{"spec", "template", "spec"}},
		{"CronJob", []string{"spec", "jobTemplate", "spec", "template", "spec"}},
		{"Pod", []string{"spec"}},
	} {
		t.Run(tc.kind, func(t *testing.T) {
			obj := workload(tc.kind, tc.pod, "registry.k8s.io/x/y:v1")
			require.NoError(t, finishObject(obj, "a.example.com", images{remapper: mirror(t)}))
			require.NoError(t, finishObject(obj, "a.example.com", images{remapper: mirror(t)}))
			containers, _, _ := unstructured.NestedSlice(obj.Object, append(tc.pod, "containers")...)
			assert.Equal(t, "mirror.example.com/m/x/y:v1", containers[0].(map[string]interface{})["image"])
			assert.Equal(t, "a.example.com", obj.GetLabels()[channelsapi.LabelAddonName])
		})
	}
	latest := workload("Deployment", []string{"spec", "template", "spec"}, "r.example.com/x:latest")
	assert.NoError(t, finishObject(latest.DeepCopy(), "a", images{}), "a user's image need not be pinned")
	assert.ErrorContains(t, finishObject(latest, "a", images{pinned: true}), "containers[0]")
}

// Cluster addons go through the same step: their images follow spec.assets like every other.
func TestClusterAddonsAreRemapped(t *testing.T) {
	ctx := &model.KopsModelContext{FeatureFlags: operatorContext(t, nil, nil).FeatureFlags, Assets: mirror(t),
		ClusterAddons: []*unstructured.Unstructured{workload("Deployment", []string{"spec", "template", "spec"}, "registry.k8s.io/x/y:v1")}}
	addons, err := ClusterAddons{}.Addons(ctx)
	require.NoError(t, err)
	require.Len(t, addons, 1)
	assert.Contains(t, string(addons[0].Manifest), "image: mirror.example.com/m/x/y:v1")
	assert.NoError(t, checkFinished(addons[0], mirror(t)))
}

// An addon rendered as text is checked, not rewritten: an image that escaped remapping is refused.
func TestCheckFinishedRefusesUnremappedImages(t *testing.T) {
	manifest := "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: w\n  labels: {addon.kops.k8s.io/name: a.example.com, app.kubernetes.io/managed-by: kops}\n" +
		"spec:\n  template:\n    spec:\n      containers: [{name: c, image: 'registry.k8s.io/x/y:v1'}]\n"
	err := checkFinished(addonapi.NewAddon("a.example.com", "v1", []byte(manifest)), mirror(t))
	assert.ErrorContains(t, err, "image registry.k8s.io/x/y:v1 is not remapped (want mirror.example.com/m/x/y:v1)")
	assert.NoError(t, checkFinished(addonapi.NewAddon("a.example.com", "v1", []byte(manifest)), nil), "nothing to remap to")
}

// Every addon of every builder is finished, in every CoreDNS mode and with every kind of
// remapping: labelled with its addon, every image remapped.
func TestEveryAddonIsFinished(t *testing.T) {
	for _, assetsSpec := range []*kops.AssetsSpec{nil, {ContainerRegistry: "mirror.example.com/m"}, {ContainerProxy: "proxy.example.com"}} {
		for _, mode := range []string{"", kops.OperatorModeClientSide, kops.OperatorModeServerSide} {
			on := true
			metrics := &kops.MetricsServerConfig{Enabled: &on, Insecure: &on}
			ctx := modeContext(t, kops.ClusterSpec{Assets: assetsSpec, MetricsServer: metrics}, mode)
			ctx.ClusterAddons = []*unstructured.Unstructured{workload("Deployment", []string{"spec", "template", "spec"}, "registry.k8s.io/x/y:v1")}
			if mode == "" {
				ctx.FeatureFlags, _ = featureflag.Parse("ClusterAddons") // built-in CoreDNS, cluster addons shipped
			}
			n := 0
			for _, b := range DefaultBuilders() {
				addons, err := b.Addons(ctx)
				require.NoError(t, err)
				for _, a := range addons {
					n++
					assert.NoError(t, checkFinished(a, ctx.Assets), "mode %q, assets %+v", mode, assetsSpec)
				}
			}
			assert.GreaterOrEqual(t, n, 3, "CoreDNS, metrics-server and the cluster addons at least")
		}
	}
}

// An object without its addon's labels is refused.
func TestCheckFinishedRefusesUnlabelledObjects(t *testing.T) {
	err := checkFinished(addonapi.NewAddon("a.example.com", "v1", labelled("other.example.com", "a")), nil)
	assert.ErrorContains(t, err, `addon a.example.com is not finished: [ConfigMap a: labels addon.kops.k8s.io/name="a.example.com" and app.kubernetes.io/managed-by="kops" are missing]`)
}
