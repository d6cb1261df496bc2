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
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/yaml"

	"k8s.io/kops/channels/pkg/channels"
	"k8s.io/kops/pkg/addons/metricsserver"
	metricsservermodel "k8s.io/kops/pkg/addons/metricsserver/kopsmodel"
	"k8s.io/kops/pkg/apis/kops"
	"k8s.io/kops/pkg/assets"
	"k8s.io/kops/pkg/featureflag"
	"k8s.io/kops/pkg/model"
)

// metricsServerModeContext is a completed cluster with metrics-server enabled in one mode: "" is
// the built-in addon (operator flags off), otherwise the flags are on and
// metricsServer.operatorMode is mode. Packages come from the embedded stable channel.
func metricsServerModeContext(t *testing.T, mode, image string, assetsSpec *kops.AssetsSpec) *model.KopsModelContext {
	t.Helper()
	on := true
	cluster := kops.CompleteCluster(&kops.Cluster{ObjectMeta: metav1.ObjectMeta{Name: "m.example.com"}, Spec: kops.ClusterSpec{
		KubernetesVersion: "1.33.0",
		MetricsServer:     &kops.MetricsServerConfig{Enabled: &on, Insecure: &on, Image: image},
		Assets:            assetsSpec,
	}}, "memfs://t")
	flags := featureflag.Set{}
	if mode != "" {
		cluster.Spec.MetricsServer.OperatorMode = mode
		flags, _ = featureflag.Parse("ClusterAddons,UseAddonOperators")
	}
	remapper, err := assets.NewRemapper(cluster.Spec.Assets)
	require.NoError(t, err)
	ctx := &model.KopsModelContext{Cluster: cluster, FeatureFlags: flags, Assets: remapper, Packages: map[string]*channels.Package{}}
	channel, err := channels.Load(channels.Stable, nil)
	require.NoError(t, err)
	for _, name := range RequiredPackages(ctx, DefaultBuilders()) {
		ctx.Packages[name], err = channel.Package(name, cluster.Spec.KubernetesVersion)
		require.NoError(t, err)
	}
	return ctx
}

// builtAddons runs every default builder and returns the addons by name.
func builtAddons(t *testing.T, ctx *model.KopsModelContext) map[string]*Addon {
	t.Helper()
	out := map[string]*Addon{}
	for _, b := range DefaultBuilders() {
		addons, err := b.Addons(ctx)
		require.NoError(t, err)
		for _, a := range addons {
			out[a.Spec.Name] = a
		}
	}
	return out
}

// Each mode writes its addons: built in, the one addon; server-side, the built-in addon under
// takeOver only, then the prerequisites, the operator and the MetricsServer object; client-side,
// the built-in addon's name and id carrying the expansion of the object kops would have written.
// Every mode renders the same managed objects for the same spec, so switching moves nothing. With
// the flags on, an unset operatorMode builds exactly what ServerSide does.
func TestMetricsServerModes(t *testing.T) {
	const prerequisites = "prerequisites.metrics-server.addons.x-k8s.io"
	builtIn := builtAddons(t, metricsServerModeContext(t, "", "", nil))
	server := builtAddons(t, metricsServerModeContext(t, kops.OperatorModeServerSide, "", nil))
	client := builtAddons(t, metricsServerModeContext(t, kops.OperatorModeClientSide, "", nil))
	// The flags on and operatorMode unset: the default mode, ServerSide.
	unset := metricsServerModeContext(t, kops.OperatorModeServerSide, "", nil)
	unset.Cluster.Spec.MetricsServer.OperatorMode = ""
	defaultMode := builtAddons(t, unset)

	for name, addons := range map[string]map[string]*Addon{"built in": builtIn, "client-side": client} {
		require.Contains(t, addons, metricsserver.AddonName, name)
		assert.False(t, addons[metricsserver.AddonName].TakeOver, name)
		for _, operatorAddon := range []string{prerequisites, metricsserver.Names().AddonName, metricsserver.OperatorAddonName} {
			assert.NotContains(t, addons, operatorAddon, "%s: no operator runs", name)
		}
	}
	assert.Equal(t, server, defaultMode, "operatorMode unset is ServerSide")
	for _, name := range []string{prerequisites, metricsserver.Names().AddonName, metricsserver.OperatorAddonName} {
		assert.Contains(t, server, name)
	}
	require.Contains(t, server, metricsserver.AddonName)
	assert.True(t, server[metricsserver.AddonName].TakeOver, "the built-in addon is only a takeover while the operator runs")
	assert.Equal(t, "0.8.0", server[metricsserver.OperatorAddonName].Spec.ID, "the object's addon is versioned by the channel's metrics-server")

	// The object kops writes, and what the operator renders for it.
	var object metricsserver.MetricsServer
	require.NoError(t, yaml.UnmarshalStrict(server[metricsserver.OperatorAddonName].Manifest, &object))
	assert.Equal(t, metricsserver.Spec{Version: "0.8.0", Image: metricsserver.DefaultImage, Insecure: true}, object.Spec)
	assert.Equal(t, "kube-system/metrics-server", object.Namespace+"/"+object.Name)
	operatorRendering, err := metricsserver.Render(object.Spec)
	require.NoError(t, err)
	prerequisitesOfBuiltIn, err := metricsserver.RenderPrerequisites(object.Spec, metricsserver.AddonName)
	require.NoError(t, err)
	want := string(prerequisitesOfBuiltIn) + "---\n" + string(operatorRendering)
	assert.Equal(t, want, string(client[metricsserver.AddonName].Manifest), "client-side: the operator's rendering, expanded by kops")
	assert.Equal(t, want, string(server[metricsserver.AddonName].Manifest), "the takeover renders what the operator will")
	assert.Equal(t, want, string(builtIn[metricsserver.AddonName].Manifest), "a default cluster: the same bytes in every mode")
	assert.Equal(t, client[metricsserver.AddonName].Spec, builtIn[metricsserver.AddonName].Spec, "client-side keeps the built-in addon's name and id")
}

// A cluster's own image is kept in every mode; without one the channel's package names it; either
// is remapped.
func TestMetricsServerObjectImage(t *testing.T) {
	mirror := &kops.AssetsSpec{ContainerRegistry: "mirror.example.com/m"}
	for _, tc := range []struct {
		name, image string
		assets      *kops.AssetsSpec
		want        string
	}{
		{"channel's", "", nil, "registry.k8s.io/metrics-server/metrics-server:v0.8.0"},
		{"channel's, remapped", "", mirror, "mirror.example.com/m/metrics-server/metrics-server:v0.8.0"},
		{"cluster's", "registry.example.com/ms/metrics-server:v0.8.1", nil, "registry.example.com/ms/metrics-server:v0.8.1"},
		{"cluster's, remapped", "quay.io/x/metrics-server:v1", mirror, "mirror.example.com/m/x/metrics-server:v1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, mode := range []string{kops.OperatorModeServerSide, kops.OperatorModeClientSide} {
				spec, err := metricsservermodel.ObjectSpec(metricsServerModeContext(t, mode, tc.image, tc.assets))
				require.NoError(t, err)
				assert.Equal(t, tc.want, spec.Image, mode)
				assert.Equal(t, "0.8.0", spec.Version)
			}
		})
	}
}

func TestMetricsServerMode(t *testing.T) {
	on, off := true, false
	for _, tc := range []struct {
		name string
		ms   *kops.MetricsServerConfig
		want string
	}{
		{"none", nil, ""},
		{"disabled", &kops.MetricsServerConfig{Enabled: &off, OperatorMode: kops.OperatorModeClientSide}, ""},
		{"enabled", &kops.MetricsServerConfig{Enabled: &on}, kops.OperatorModeServerSide},
		{"client-side", &kops.MetricsServerConfig{Enabled: &on, OperatorMode: kops.OperatorModeClientSide}, kops.OperatorModeClientSide},
	} {
		assert.Equal(t, tc.want, metricsservermodel.Operator().Mode(&kops.ClusterSpec{MetricsServer: tc.ms}), tc.name)
	}
}

// The operator runs with UseAddonOperators (or its spelling UseOperators) and ClusterAddons, as
// CoreDNS's does; UseAddonOperators alone changes nothing.
func TestMetricsServerOperatorFlags(t *testing.T) {
	on := true
	for flags, want := range map[string]bool{
		"ClusterAddons,UseAddonOperators": true,
		"UseOperators,ClusterAddons":      true,
		"UseAddonOperators":               false,
		"ClusterAddons":                   false,
		"":                                false,
	} {
		set, _ := featureflag.Parse(flags)
		ctx := &model.KopsModelContext{FeatureFlags: set, Cluster: &kops.Cluster{Spec: kops.ClusterSpec{
			MetricsServer: &kops.MetricsServerConfig{Enabled: &on, Insecure: &on}}}}
		assert.Equal(t, want, metricsservermodel.Operator().UsesOperator(ctx), flags)
		assert.False(t, metricsservermodel.Operator().ExpandsClientSide(ctx), flags)
	}
}
