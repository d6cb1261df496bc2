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
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/yaml"

	"k8s.io/kops/channels/pkg/channels"
	"k8s.io/kops/pkg/addons/coredns"
	"k8s.io/kops/pkg/addons/coredns/controller"
	corednsmodel "k8s.io/kops/pkg/addons/coredns/kopsmodel"
	"k8s.io/kops/pkg/apis/kops"
	"k8s.io/kops/pkg/assets"
	"k8s.io/kops/pkg/featureflag"
	"k8s.io/kops/pkg/kubemanifest"
	"k8s.io/kops/pkg/model"
	"k8s.io/kops/pkg/operator/confine"
)

// modeContext is the model context of cluster spec in one CoreDNS mode: "" is the built-in addon
// (operator flags off), otherwise the flags are on and kubeDNS.operatorMode is mode. Packages come
// from the embedded stable channel, as `kops update cluster` reads them.
func modeContext(t *testing.T, spec kops.ClusterSpec, mode string) *model.KopsModelContext {
	t.Helper()
	cluster := (&kops.Cluster{ObjectMeta: metav1.ObjectMeta{Name: "m.example.com"}, Spec: spec}).DeepCopy()
	cluster.Spec.KubernetesVersion = "1.33.0"
	cluster = kops.CompleteCluster(cluster, "memfs://t")
	flags := featureflag.Set{}
	if mode != "" {
		cluster.Spec.KubeDNS.OperatorMode = mode
		flags, _ = featureflag.Parse("ClusterAddons,UseAddonOperators")
	}
	remapper, err := assets.NewRemapper(cluster.Spec.Assets)
	require.NoError(t, err)
	ctx := &model.KopsModelContext{Cluster: cluster, FeatureFlags: flags, Assets: remapper}
	if names := RequiredPackages(ctx, DefaultBuilders()); len(names) > 0 {
		channel, err := channels.Load(cluster.Spec.Channel, nil)
		require.NoError(t, err)
		ctx.Packages = map[string]*channels.Package{}
		for _, name := range names {
			ctx.Packages[name], err = channel.Package(name, cluster.Spec.KubernetesVersion)
			require.NoError(t, err)
		}
	}
	return ctx
}

// addonManifest returns the manifest of the addon named name among addons.
func addonManifest(t *testing.T, addons []*Addon, name string) []byte {
	t.Helper()
	for _, a := range addons {
		if a.Spec.Name == name {
			return a.Manifest
		}
	}
	require.Failf(t, "addon missing", "%s", name)
	return nil
}

// operatorRendering renders what the operator binary kops deploys would: the operator Deployment of
// the operator addon, its arguments parsed by the operator's own flag parsing, the CoreDNS object
// kops writes rendered with the facts those arguments carry.
func operatorRendering(t *testing.T, addons []*Addon) (coredns.Spec, []byte) {
	t.Helper()
	var object coredns.CoreDNS
	require.NoError(t, yaml.UnmarshalStrict(addonManifest(t, addons, corednsmodel.CoreDNSResourceAddonName), &object))
	objects, err := kubemanifest.DecodeStrict(addonManifest(t, addons, coredns.Names().AddonName))
	require.NoError(t, err)
	var args []string
	for _, o := range objects {
		if o.Key() == "Deployment/"+coredns.Names().Namespace+"/"+coredns.Names().DeploymentName {
			var d appsv1.Deployment
			require.NoError(t, yaml.UnmarshalStrict(o.Raw, &d))
			require.NotEmpty(t, d.Spec.Template.Spec.Containers)
			args = d.Spec.Template.Spec.Containers[0].Args
		}
	}
	require.NotEmpty(t, args, "the operator addon has the operator Deployment")
	cmd, err := controller.ParseFlags(args)
	require.NoError(t, err, "the operator accepts the arguments kops gives it")
	rendered, err := coredns.Render(object.Spec, cmd.Facts) // the renderer the operator renders with (pkg/addons/coredns/controller/render.go)
	require.NoError(t, err)
	return object.Spec, rendered
}

// TestModesRenderTheSameObjects: for one cluster, the objects the operator renders from the CoreDNS
// object and the arguments kops gives it (server-side), the objects kops writes in client-side
// mode, and the built-in addon's with the same image are the same bytes; the admission policy is
// derived from them too. The cases customise every fact of spec.kubeDNS the operator needs.
func TestModesRenderTheSameObjects(t *testing.T) {
	tolerations := []corev1.Toleration{{Key: "dedicated", Operator: corev1.TolerationOpEqual, Value: "dns", Effect: corev1.TaintEffectNoSchedule}}
	affinity := &corev1.Affinity{NodeAffinity: &corev1.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &corev1.NodeSelector{
		NodeSelectorTerms: []corev1.NodeSelectorTerm{{MatchExpressions: []corev1.NodeSelectorRequirement{{Key: "example.com/dns", Operator: corev1.NodeSelectorOpIn, Values: []string{"yes"}}}}},
	}}}
	quantity := func(s string) *resource.Quantity { q := resource.MustParse(s); return &q }
	tests := []struct {
		name string
		spec kops.ClusterSpec
	}{
		{"defaults", kops.ClusterSpec{}},
		{"custom DNS settings and a registry mirror", kops.ClusterSpec{
			KubeDNS: &kops.KubeDNSConfig{
				Domain:              "corp.internal",
				UpstreamNameservers: []string{"10.0.0.2"},
				StubDomains:         map[string][]string{"a.example.com": {"10.8.0.1"}},
				Tolerations:         tolerations,
				PodAnnotations:      map[string]string{"example.com/note": "yes"},
			},
			Assets: &kops.AssetsSpec{ContainerRegistry: "registry.example.com/mirror"},
		}},
		{"custom resources, tolerations, affinity, annotations and a registry mirror", kops.ClusterSpec{
			KubeDNS: &kops.KubeDNSConfig{
				CPURequest:     quantity("250m"),
				MemoryRequest:  quantity("96Mi"),
				MemoryLimit:    quantity("1Gi"),
				Tolerations:    tolerations,
				Affinity:       affinity,
				PodAnnotations: map[string]string{"b.example.com/second": "2", "a.example.com/first": "1"},
			},
			Assets: &kops.AssetsSpec{ContainerRegistry: "mirror.example.org/k8s"},
		}},
		{"coreDNSImage set: the channel package's image wins in both operator modes", kops.ClusterSpec{
			KubeDNS: &kops.KubeDNSConfig{CoreDNSImage: "registry.example.com/coredns:v9.9.9"},
		}},
		{"externalCoreFile and IPv6", kops.ClusterSpec{
			NonMasqueradeCIDR: "::/0",
			KubeDNS:           &kops.KubeDNSConfig{ExternalCoreFile: ".:53 {\n  forward . 8.8.8.8\n}\n"},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// Server-side: what the operator kops deploys renders from the CoreDNS object kops writes.
			server := modeContext(t, tt.spec, kops.OperatorModeServerSide)
			serverAddons, err := OperatorBuilder{corednsmodel.Operator()}.Addons(server)
			require.NoError(t, err)
			spec, operator := operatorRendering(t, serverAddons)

			// Client-side: what kops writes itself, and nothing of the operator.
			client := modeContext(t, tt.spec, kops.OperatorModeClientSide)
			clientAddons, err := BuiltInBuilder{corednsmodel.Operator()}.Addons(client)
			require.NoError(t, err)
			clientSide := addonManifest(t, clientAddons, coredns.AddonName)
			none, err := OperatorBuilder{corednsmodel.Operator()}.Addons(client)
			require.NoError(t, err)
			assert.Empty(t, none, "client-side mode writes no operator, rights or policy")

			// Built-in, told to run the same image.
			builtInCtx := modeContext(t, tt.spec, "")
			builtInCtx.Cluster.Spec.KubeDNS.CoreDNSImage = corednsmodel.CoreDNSImageRepository + ":v" + spec.Version
			builtInAddons, err := BuiltInBuilder{corednsmodel.Operator()}.Addons(builtInCtx)
			require.NoError(t, err)
			builtIn := addonManifest(t, builtInAddons, coredns.AddonName)

			assert.Equal(t, string(operator), string(clientSide), "operator vs client-side")
			assert.Equal(t, string(builtIn), string(clientSide), "built-in vs client-side")

			// The admission policy is derived from those same bytes.
			marked, err := corednsmodel.Render(server, corednsmodel.Marked(spec))
			require.NoError(t, err)
			scope, err := corednsmodel.Descriptor().ScopeFromManifest(clientSide, marked, corednsmodel.Params(spec))
			require.NoError(t, err)
			want, err := confine.PolicyManifest(scope)
			require.NoError(t, err)
			in, err := corednsmodel.Operator().Instructions(server)
			require.NoError(t, err)
			require.Equal(t, spec, in.Spec)
			got, err := OperatorBuilder{corednsmodel.Operator()}.policy(in)
			require.NoError(t, err)
			assert.Equal(t, string(want), string(got))
		})
	}
}

// TestOperatorModeNeedsTheFlags: without the operator flags operatorMode changes nothing, and
// client-side mode reads only the CoreDNS package.
func TestOperatorModeNeedsTheFlags(t *testing.T) {
	for _, mode := range []string{kops.OperatorModeServerSide, kops.OperatorModeClientSide} {
		ctx := modeContext(t, kops.ClusterSpec{}, "")
		ctx.Cluster.Spec.KubeDNS.OperatorMode = mode
		assert.False(t, corednsmodel.UsesOperator(ctx), mode)
		assert.False(t, corednsmodel.ExpandsClientSide(ctx), mode)
		assert.Empty(t, RequiredPackages(ctx, DefaultBuilders()), mode)
	}
	client := modeContext(t, kops.ClusterSpec{}, kops.OperatorModeClientSide)
	assert.Equal(t, []string{corednsmodel.CoreDNSPackage}, RequiredPackages(client, DefaultBuilders()))
	server := modeContext(t, kops.ClusterSpec{}, "")
	server.FeatureFlags, _ = featureflag.Parse("ClusterAddons,UseAddonOperators")
	assert.True(t, corednsmodel.UsesOperator(server), "ServerSide is the default with the flags on")
}
