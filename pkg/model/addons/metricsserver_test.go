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
	appsv1 "k8s.io/api/apps/v1"

	"k8s.io/kops/pkg/addons/metricsserver"
	metricsservermodel "k8s.io/kops/pkg/addons/metricsserver/kopsmodel"
	"k8s.io/kops/pkg/apis/kops"
	"k8s.io/kops/pkg/assets"
	"k8s.io/kops/pkg/featureflag"
	"k8s.io/kops/pkg/kubemanifest"
	"k8s.io/kops/pkg/model"
)

func metricsServerContext(t *testing.T, config *kops.MetricsServerConfig, assetsSpec *kops.AssetsSpec, flags string) *model.KopsModelContext {
	remapper, err := assets.NewRemapper(assetsSpec)
	require.NoError(t, err)
	set, _ := featureflag.Parse(flags)
	return &model.KopsModelContext{
		Cluster:      &kops.Cluster{Spec: kops.ClusterSpec{MetricsServer: config, Assets: assetsSpec}},
		Assets:       remapper,
		FeatureFlags: set,
	}
}

// The built-in addon is in the channel exactly while spec.metricsServer.enabled is true, named as
// kops names it. With the operator flags it renders the MetricsServer object instead
// (TestMetricsServerModes).
func TestMetricsServerOnlyWhenEnabled(t *testing.T) {
	on, off := true, false
	cases := []struct {
		name   string
		config *kops.MetricsServerConfig
		flags  string
		want   bool
	}{
		{"unset", nil, "", false},
		{"enabled unset", &kops.MetricsServerConfig{Insecure: &on}, "", false},
		{"disabled", &kops.MetricsServerConfig{Enabled: &off, Insecure: &on}, "", false},
		{"enabled", &kops.MetricsServerConfig{Enabled: &on, Insecure: &on}, "", true},
		{"enabled, UseAddonOperators without ClusterAddons", &kops.MetricsServerConfig{Enabled: &on, Insecure: &on}, "UseAddonOperators", true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := BuiltInBuilder{metricsservermodel.Operator()}.Addons(metricsServerContext(t, tc.config, nil, tc.flags))
			require.NoError(t, err)
			if !tc.want {
				assert.Empty(t, got)
				return
			}
			require.Len(t, got, 1)
			a := got[0]
			assert.Equal(t, "metrics-server.addons.k8s.io", a.Spec.Name)
			assert.Equal(t, "k8s-1.11", a.Spec.ID)
			assert.Equal(t, "metrics-server.addons.k8s.io/k8s-1.11.yaml", a.Spec.Manifest)
			assert.Equal(t, map[string]string{"k8s-app": "metrics-server"}, a.Spec.Selector)
			assert.False(t, a.TakeOver)
			want, err := metricsserver.RenderBuiltIn(metricsserver.Spec{Image: metricsserver.DefaultImage, Insecure: true})
			require.NoError(t, err)
			assert.Equal(t, string(want), string(a.Manifest), "the renderer's bytes, untouched")
		})
	}
	assert.Equal(t, []string{"metrics-server.addons.k8s.io"}, BuiltInBuilder{metricsservermodel.Operator()}.Owns())
}

// The image is spec.metricsServer.image or the pinned default, remapped by spec.assets like every
// other image.
func TestMetricsServerImage(t *testing.T) {
	on := true
	cases := []struct {
		name       string
		image      string
		assetsSpec *kops.AssetsSpec
		want       string
	}{
		{"default", "", nil, "registry.k8s.io/metrics-server/metrics-server:v0.8.0"},
		{"own", "registry.example.com/ms/metrics-server:v0.8.1", nil, "registry.example.com/ms/metrics-server:v0.8.1"},
		{"default, registry copy", "", &kops.AssetsSpec{ContainerRegistry: "mirror.example.com/m"}, "mirror.example.com/m/metrics-server/metrics-server:v0.8.0"},
		{"default, proxy", "", &kops.AssetsSpec{ContainerProxy: "proxy.example.com"}, "proxy.example.com/registry.k8s.io/metrics-server/metrics-server:v0.8.0"},
		{"own, registry copy", "quay.io/x/metrics-server:v1", &kops.AssetsSpec{ContainerRegistry: "mirror.example.com/m"}, "mirror.example.com/m/x/metrics-server:v1"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ctx := metricsServerContext(t, &kops.MetricsServerConfig{Enabled: &on, Insecure: &on, Image: tc.image}, tc.assetsSpec, "")
			got, err := BuiltInBuilder{metricsservermodel.Operator()}.Addons(ctx)
			require.NoError(t, err)
			require.Len(t, got, 1)
			require.NoError(t, checkFinished(got[0], ctx.Assets))
			objs, err := kubemanifest.DecodeStrict(got[0].Manifest)
			require.NoError(t, err)
			var images []string
			for _, o := range objs {
				if d, ok := o.Typed.(*appsv1.Deployment); ok {
					images = append(images, d.Spec.Template.Spec.Containers[0].Image)
				}
			}
			assert.Equal(t, []string{tc.want}, images)
		})
	}
}

// kops's secure mode (insecure unset or false) renders kops's secure variant under needsPKI, as
// kops's bootstrap channel writes it; with the operator flags, in either operatorMode, it stays the
// built-in addon rendered from the spec: the operator's CRD admits only insecure: true.
func TestMetricsServerSecureMode(t *testing.T) {
	on, off := true, false
	want, err := metricsserver.RenderBuiltIn(metricsserver.Spec{Image: metricsserver.DefaultImage})
	require.NoError(t, err)
	for _, tc := range []struct {
		name  string
		ms    kops.MetricsServerConfig
		flags string
	}{
		{"insecure unset", kops.MetricsServerConfig{Enabled: &on}, ""},
		{"insecure false", kops.MetricsServerConfig{Enabled: &on, Insecure: &off}, ""},
		{"operator flags", kops.MetricsServerConfig{Enabled: &on}, "ClusterAddons,UseAddonOperators"},
		{"operator flags, client-side", kops.MetricsServerConfig{Enabled: &on, OperatorMode: kops.OperatorModeClientSide}, "ClusterAddons,UseAddonOperators"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ms := tc.ms
			ctx := metricsServerContext(t, &ms, nil, tc.flags)
			o := metricsservermodel.Operator()
			got, err := BuiltInBuilder{o}.Addons(ctx)
			require.NoError(t, err)
			require.Len(t, got, 1)
			assert.True(t, got[0].Spec.NeedsPKI)
			assert.False(t, got[0].TakeOver)
			assert.Equal(t, string(want), string(got[0].Manifest))
			require.NoError(t, checkFinished(got[0], ctx.Assets))
			assert.Empty(t, BuiltInBuilder{o}.Packages(ctx), "rendered from the spec: no package is read")
			operatorAddons, err := OperatorBuilder{o}.Addons(ctx)
			require.NoError(t, err)
			assert.Empty(t, operatorAddons, "no operator runs")
			assert.False(t, o.UsesOperator(ctx) || o.ExpandsClientSide(ctx))
			if tc.flags != "" {
				assert.Contains(t, o.KeptBuiltIn(&ctx.Cluster.Spec), "stays built in")
			}
		})
	}
	insecure, err := BuiltInBuilder{metricsservermodel.Operator()}.Addons(metricsServerContext(t, &kops.MetricsServerConfig{Enabled: &on, Insecure: &on}, nil, ""))
	require.NoError(t, err)
	require.Len(t, insecure, 1)
	assert.False(t, insecure[0].Spec.NeedsPKI, "the insecure mode needs no PKI")
	assert.Empty(t, metricsservermodel.Operator().KeptBuiltIn(&kops.ClusterSpec{MetricsServer: &kops.MetricsServerConfig{Enabled: &on, Insecure: &on}}))
	assert.Empty(t, metricsservermodel.Operator().KeptBuiltIn(&kops.ClusterSpec{MetricsServer: &kops.MetricsServerConfig{Enabled: &off}}), "disabled: nothing is kept")
}
