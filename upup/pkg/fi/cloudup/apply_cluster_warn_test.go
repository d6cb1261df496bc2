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

package cloudup

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"k8s.io/kops/pkg/apis/kops"
	"k8s.io/kops/pkg/client"
	"k8s.io/kops/pkg/featureflag"
	"k8s.io/kops/util/pkg/vfs"
)

// Without ClusterAddons, update warns about stored objects it leaves out, but not about component
// configuration, which is never shipped.
func TestLoadModelContextWarnsOnlyAboutShippableObjects(t *testing.T) {
	scheduler := &unstructured.Unstructured{Object: map[string]interface{}{
		"apiVersion": "kubescheduler.config.k8s.io/v1", "kind": "KubeSchedulerConfiguration",
	}}
	configMap := &unstructured.Unstructured{Object: map[string]interface{}{
		"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]interface{}{"name": "extra"},
	}}
	for _, tc := range []struct {
		name    string
		objects []*unstructured.Unstructured
		warn    string
	}{
		{"component configuration only", []*unstructured.Unstructured{scheduler}, ""},
		{"a ConfigMap too", []*unstructured.Unstructured{scheduler, configMap}, "1 stored addon objects are left out"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cluster, groups, err := NewCluster(NewClusterOptions{Name: "w.example.com", Zones: []string{"us-east-2a"}})
			require.NoError(t, err)
			mem := &vfs.MemFS{}
			base, err := vfs.ParsePath("memfs://warn", mem)
			require.NoError(t, err)
			clientset := client.New(base)
			require.NoError(t, clientset.CreateCluster(client.NewCluster{Cluster: cluster, InstanceGroups: groups, Addons: tc.objects}))

			_, warnings, err := LoadModelContext(clientset, cluster.Name, featureflag.Set{})
			require.NoError(t, err)
			var texts []string
			for _, w := range warnings {
				texts = append(texts, w.Text)
			}
			if tc.warn == "" {
				assert.Empty(t, texts)
			} else {
				require.Len(t, texts, 1)
				assert.Contains(t, texts[0], tc.warn)
			}
		})
	}
}

// operatorMode means something only with the operator flags; without them update says it ignores
// it, for each addon that sets it, in one warning.
func TestLoadModelContextWarnsAboutIgnoredOperatorMode(t *testing.T) {
	on, _ := featureflag.Parse("ClusterAddons,UseAddonOperators")
	for _, tc := range []struct {
		name         string
		dns, metrics string
		flags        featureflag.Set
		warn         string
	}{
		{"no mode, no flags", "", "", featureflag.Set{}, ""},
		{"ClientSide without flags", kops.OperatorModeClientSide, "", featureflag.Set{}, "spec.kubeDNS.operatorMode: ClientSide is ignored: CoreDNS is built in unless"},
		{"ServerSide without flags", kops.OperatorModeServerSide, "", featureflag.Set{}, "spec.kubeDNS.operatorMode: ServerSide is ignored"},
		{"ClientSide with flags", kops.OperatorModeClientSide, "", on, ""},
		{"metrics-server without flags", "", kops.OperatorModeClientSide, featureflag.Set{},
			"spec.metricsServer.operatorMode: ClientSide is ignored: metrics-server is built in unless KOPS_FEATURE_FLAGS has ClusterAddons,UseAddonOperators"},
		{"both without flags", kops.OperatorModeServerSide, kops.OperatorModeClientSide, featureflag.Set{},
			"spec.kubeDNS.operatorMode: ServerSide is ignored: CoreDNS is built in; spec.metricsServer.operatorMode: ClientSide is ignored: metrics-server is built in unless"},
		{"metrics-server with flags", "", kops.OperatorModeClientSide, on, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cluster, groups, err := NewCluster(NewClusterOptions{Name: "m.example.com", Zones: []string{"us-east-2a"}})
			require.NoError(t, err)
			if cluster.Spec.KubeDNS == nil {
				cluster.Spec.KubeDNS = &kops.KubeDNSConfig{}
			}
			cluster.Spec.KubeDNS.OperatorMode = tc.dns
			if tc.metrics != "" {
				on := true
				cluster.Spec.MetricsServer = &kops.MetricsServerConfig{Enabled: &on, Insecure: &on, OperatorMode: tc.metrics}
			}
			mem := &vfs.MemFS{}
			base, err := vfs.ParsePath("memfs://mode", mem)
			require.NoError(t, err)
			clientset := client.New(base)
			require.NoError(t, clientset.CreateCluster(client.NewCluster{Cluster: cluster, InstanceGroups: groups}))

			_, warnings, err := LoadModelContext(clientset, cluster.Name, tc.flags)
			require.NoError(t, err)
			var texts []string
			for _, w := range warnings {
				texts = append(texts, w.String())
			}
			if tc.warn == "" {
				assert.Empty(t, texts)
			} else {
				require.Len(t, texts, 1)
				assert.Contains(t, texts[0], "m.example.com/config: "+tc.warn)
			}
		})
	}
}
