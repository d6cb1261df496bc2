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

package validation

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/types"

	"k8s.io/kops/channels/pkg/api"
	"k8s.io/kops/pkg/apis/kops"
	"k8s.io/kops/util/pkg/vfs"
)

func storeChannel(t *testing.T, mem *vfs.MemFS, addons ...api.AddonSpec) {
	t.Helper()
	ch := api.NewAddons("bootstrap")
	ch.Spec.Addons = addons
	data, err := ch.Encode()
	require.NoError(t, err)
	p, err := vfs.ParsePath("memfs://s/c.k8s.local/addons/bootstrap-channel.yaml", mem)
	require.NoError(t, err)
	require.NoError(t, p.WriteFile(data))
}

func cluster() *kops.Cluster {
	c := &kops.Cluster{}
	c.Name = "c.k8s.local"
	return kops.CompleteCluster(c, "memfs://s")
}

// hash is a well-formed manifest hash, different for each n.
func hash(n int) string { return fmt.Sprintf("%064x", n) }

func TestReadExpected(t *testing.T) {
	cases := []struct {
		name     string
		addons   []api.AddonSpec
		want     DNSMode
		kube2iam bool
	}{
		{"built-in", []api.AddonSpec{{Name: "coredns.addons.k8s.io", ID: "k8s-1.12", Manifest: "coredns.addons.k8s.io/k8s-1.12.yaml", ManifestHash: hash(1)}}, DNSBuiltIn, false},
		{"operator", []api.AddonSpec{
			{Name: "coredns-rbac.addons.k8s.io", ID: "k8s-1.12", Manifest: "coredns-rbac.addons.k8s.io/k8s-1.12.yaml", ManifestHash: hash(1)},
			{Name: "operator.coredns.addons.x-k8s.io", ID: "0.2.0", Manifest: "operator.coredns.addons.x-k8s.io/0.2.0.yaml", ManifestHash: hash(2), Namespace: "coredns-operator-system"},
			{Name: "coredns.addons.x-k8s.io", ID: "1.12.4", Manifest: "coredns.addons.x-k8s.io/1.12.4.yaml", ManifestHash: hash(3)},
		}, DNSOperator, false},
		{"no DNS", []api.AddonSpec{{Name: "other", Manifest: "other/a.yaml", ManifestHash: hash(4)}}, DNSNone, false},
		{"kube2iam", []api.AddonSpec{
			{Name: "coredns.addons.k8s.io", ID: "k8s-1.12", Manifest: "coredns.addons.k8s.io/k8s-1.12.yaml", ManifestHash: hash(1)},
			{Name: "kube2iam.addons.k8s.io", ID: "k8s-1.12", Manifest: "kube2iam.addons.k8s.io/k8s-1.12.yaml", ManifestHash: hash(5)},
		}, DNSBuiltIn, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			mem := &vfs.MemFS{}
			storeChannel(t, mem, tc.addons...)
			e, err := ReadExpected(cluster(), vfs.NewContext(mem))
			require.NoError(t, err)
			assert.Equal(t, tc.want, e.DNS)
			assert.Equal(t, tc.kube2iam, e.Kube2IAM)
			var operators []string
			for _, d := range e.Operators {
				operators = append(operators, d.Namespace+"/"+d.DeploymentName+" "+d.CRD.Kind+" "+d.WatchNamespace+"/"+d.Instructions)
			}
			if tc.want == DNSOperator {
				assert.Equal(t, []string{"coredns-operator-system/coredns-operator CoreDNS kube-system/coredns"}, operators, "each operator of the registry in the channel is checked")
			} else {
				assert.Empty(t, operators)
			}
			if tc.want == DNSOperator {
				assert.Equal(t, []types.NamespacedName{{Namespace: "kube-system", Name: "coredns"}}, e.Runs.Deployments, "what the operator manages")
			} else {
				assert.Empty(t, e.Runs.Deployments)
			}
			assert.Equal(t, "100.64.0.10", e.DNSServerIP)
			assert.Equal(t, "memfs://s/c.k8s.local/addons/bootstrap-channel.yaml", e.Channel)
			require.Len(t, e.Addons, len(tc.addons))
			for i, a := range tc.addons {
				ns := a.Namespace
				if ns == "" {
					ns = "kube-system"
				}
				assert.Equal(t, Addon{Name: a.Name, Namespace: ns, ID: a.ID, Hash: a.ManifestHash}, e.Addons[i])
			}
		})
	}

	_, err := ReadExpected(cluster(), vfs.NewContext(&vfs.MemFS{}))
	require.EqualError(t, err, "no bootstrap channel at memfs://s/c.k8s.local/addons/bootstrap-channel.yaml: write it with 'kops update cluster --name c.k8s.local --yes'")

	mem := &vfs.MemFS{}
	p, err := vfs.ParsePath("memfs://s/c.k8s.local/addons/bootstrap-channel.yaml", mem)
	require.NoError(t, err)
	require.NoError(t, p.WriteFile([]byte("kind: Channel\n")))
	_, err = ReadExpected(cluster(), vfs.NewContext(mem))
	require.ErrorContains(t, err, "memfs://s/c.k8s.local/addons/bootstrap-channel.yaml:1: ", "names the file and line")
	require.ErrorContains(t, err, `"Channel"`, "names the wrong kind")
}

func TestCompareRecord(t *testing.T) {
	a := Addon{Name: "x", ID: "k8s-1.12", Hash: "0123456789abcdef"}
	cases := []struct {
		record string
		ok     bool
		want   string
	}{
		{`{"id":"k8s-1.12","manifestHash":"0123456789abcdef","systemGeneration":1}`, true, `applied at version "k8s-1.12", manifest 0123456789ab`},
		{`{"id":"k8s-1.11","manifestHash":"0123456789abcdef"}`, false, `stale: applied version "k8s-1.11", the channel has "k8s-1.12"`},
		{`{"id":"k8s-1.12","manifestHash":"ffff"}`, false, "stale: applied manifest ffff, the channel has 0123456789ab"},
		{`{"id":"k8s-1.12"}`, false, "stale: applied manifest (none), the channel has 0123456789ab"},
		{`not json`, false, "parsing addon record"},
	}
	for _, tc := range cases {
		ok, msg := compareRecord(tc.record, a)
		assert.Equal(t, tc.ok, ok, tc.record)
		assert.Contains(t, msg, tc.want)
	}
}

// With metrics-server in the channel, validation checks what its rendering runs: the Deployment
// and the APIService it serves.
func TestReadExpectedMetricsServer(t *testing.T) {
	mem := &vfs.MemFS{}
	storeChannel(t, mem, api.AddonSpec{Name: "metrics-server.addons.k8s.io", ID: "k8s-1.11", Manifest: "metrics-server.addons.k8s.io/k8s-1.11.yaml", ManifestHash: hash(6)})
	e, err := ReadExpected(cluster(), vfs.NewContext(mem))
	require.NoError(t, err)
	assert.Equal(t, []types.NamespacedName{{Namespace: "kube-system", Name: "metrics-server"}}, e.Runs.Deployments)
	assert.Equal(t, []string{"v1beta1.metrics.k8s.io"}, e.Runs.APIServices)
	assert.Equal(t, DNSNone, e.DNS)
}
