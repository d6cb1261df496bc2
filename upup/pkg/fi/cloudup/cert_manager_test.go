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

	metricsservermodel "k8s.io/kops/pkg/addons/metricsserver/kopsmodel"
	"k8s.io/kops/pkg/apis/kops"
	"k8s.io/kops/pkg/client"
	"k8s.io/kops/pkg/featureflag"
	"k8s.io/kops/util/pkg/vfs"
)

// kops's secure metrics-server loads (spec.certManager enabled, as kops requires); update says once
// that cert-manager is not deployed by this build, and, with the operator flags, once that
// metrics-server stays built in. The insecure mode says neither; none of it is an error.
func TestSecureMetricsServerLoadsWithNotes(t *testing.T) {
	flags, _ := featureflag.Parse("ClusterAddons,UseAddonOperators")
	on, off := true, false
	const keptBuiltIn = "spec.metricsServer.insecure is unset or false (kops's secure mode): metrics-server stays built in, for its operator runs only the insecure mode"
	for _, tc := range []struct {
		name     string
		insecure *bool
		flags    featureflag.Set
		want     []string
		operator bool
	}{
		{"insecure", &on, featureflag.Set{}, nil, false},
		{"insecure with the operator flags", &on, flags, nil, true},
		{"insecure unset", nil, featureflag.Set{}, []string{CertManagerNotDeployed}, false},
		{"insecure false", &off, featureflag.Set{}, []string{CertManagerNotDeployed}, false},
		{"secure with the operator flags", nil, flags, []string{CertManagerNotDeployed, keptBuiltIn}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cluster, groups, err := NewCluster(NewClusterOptions{Name: "secure.example.com", Zones: []string{"us-east-2a"}})
			require.NoError(t, err)
			cluster.Spec.MetricsServer = &kops.MetricsServerConfig{Enabled: &on, Insecure: tc.insecure}
			cluster.Spec.CertManager = &kops.CertManagerConfig{Enabled: &on}
			mem := &vfs.MemFS{}
			base, err := vfs.ParsePath("memfs://secure", mem)
			require.NoError(t, err)
			clientset := client.New(base)
			require.NoError(t, clientset.CreateCluster(client.NewCluster{Cluster: cluster, InstanceGroups: groups}))

			ctx, warnings, err := LoadModelContext(clientset, cluster.Name, tc.flags)
			require.NoError(t, err)
			var texts []string
			for _, w := range warnings {
				texts = append(texts, w.String())
			}
			require.Len(t, texts, len(tc.want), "%q", texts)
			for i, want := range tc.want {
				assert.Contains(t, texts[i], "secure.example.com/config: "+want)
			}
			assert.Equal(t, tc.operator, metricsservermodel.Operator().UsesOperator(ctx))
		})
	}
}

// Without cert-manager enabled, kops refuses the secure mode, naming the field.
func TestSecureMetricsServerNeedsCertManagerEnabled(t *testing.T) {
	cluster, groups, err := NewCluster(NewClusterOptions{Name: "refused.example.com", Zones: []string{"us-east-2a"}})
	require.NoError(t, err)
	on := true
	cluster.Spec.MetricsServer = &kops.MetricsServerConfig{Enabled: &on}
	base, err := vfs.ParsePath("memfs://refused", &vfs.MemFS{})
	require.NoError(t, err)
	clientset := client.New(base)
	require.NoError(t, clientset.CreateCluster(client.NewCluster{Cluster: cluster, InstanceGroups: groups}))
	_, _, err = LoadModelContext(clientset, cluster.Name, featureflag.Set{})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "spec.metricsServer.insecure")
	assert.Contains(t, err.Error(), "Secure metrics server requires that cert manager is enabled")
}
