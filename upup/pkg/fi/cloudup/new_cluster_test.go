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
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"k8s.io/kops/pkg/apis/kops"
	"k8s.io/kops/pkg/apis/kops/validation"
)

func TestNewClusterValidates(t *testing.T) {
	cases := []struct {
		name      string
		opts      NewClusterOptions
		subnets   []string
		groups    []string
		nodeSizes string
	}{
		{
			name:    "one zone",
			opts:    NewClusterOptions{Name: "addons.k8s.local", Zones: []string{"us-east-2a"}},
			subnets: []string{"172.20.32.0/19"},
			groups:  []string{"control-plane-us-east-2a", "nodes-us-east-2a"},
		},
		{
			name:    "three zones, one control plane",
			opts:    NewClusterOptions{Name: "c.example.com", Zones: []string{"eu-west-1a", "eu-west-1b", "eu-west-1c"}, ControlPlaneZones: []string{"eu-west-1b"}, NodeCount: 3},
			subnets: []string{"172.20.32.0/19", "172.20.64.0/19", "172.20.96.0/19"},
			groups:  []string{"control-plane-eu-west-1b", "nodes-eu-west-1a", "nodes-eu-west-1b", "nodes-eu-west-1c"},
		},
		{
			name:    "eight zones need smaller blocks",
			opts:    NewClusterOptions{Name: "c.example.com", Zones: []string{"us-east-1a", "us-east-1b", "us-east-1c", "us-east-1d", "us-east-1e", "us-east-1f", "us-east-1-bos-1a", "us-east-1-mia-1a"}, ControlPlaneZones: []string{"us-east-1a"}, NetworkCIDR: "10.0.0.0/16"},
			subnets: []string{"10.0.16.0/20", "10.0.32.0/20", "10.0.48.0/20", "10.0.64.0/20", "10.0.80.0/20", "10.0.96.0/20", "10.0.112.0/20", "10.0.128.0/20"},
			groups: []string{"control-plane-us-east-1a", "nodes-us-east-1a", "nodes-us-east-1b", "nodes-us-east-1c", "nodes-us-east-1d",
				"nodes-us-east-1e", "nodes-us-east-1f", "nodes-us-east-1-bos-1a", "nodes-us-east-1-mia-1a"},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, groups, err := NewCluster(tc.opts)
			require.NoError(t, err)
			var cidrs []string
			for _, s := range c.Spec.Subnets {
				cidrs = append(cidrs, s.CIDR)
			}
			assert.Equal(t, tc.subnets, cidrs)
			var names []string
			for _, g := range groups {
				names = append(names, g.Name)
				assert.Equal(t, tc.opts.Name, g.Labels[kops.LabelClusterName])
				require.NotNil(t, g.Spec.InstanceMetadata)
				assert.Equal(t, "required", *g.Spec.InstanceMetadata.HTTPTokens)
				assert.Equal(t, int64(1), *g.Spec.InstanceMetadata.HTTPPutResponseHopLimit, "pods must not reach IMDS")
			}
			assert.Equal(t, tc.groups, names)

			completed := kops.CompleteCluster(c, "memfs://test")
			assert.Empty(t, validation.ValidateClusterAndInstanceGroups(completed, groups), "a new cluster must validate")
		})
	}
}

func TestNewClusterRejects(t *testing.T) {
	opts := func(zones ...string) NewClusterOptions { return NewClusterOptions{Name: "a.example.com", Zones: zones} }
	with := func(o NewClusterOptions, change func(o *NewClusterOptions)) NewClusterOptions {
		change(&o)
		return o
	}
	cases := []struct {
		name string
		opts NewClusterOptions
		want string
	}{
		{"no zones", NewClusterOptions{Name: "a.b"}, "must specify at least one zone"},
		{"zone twice", opts("us-east-2a", "us-east-2a"), `zone "us-east-2a" is listed twice`},
		{"control plane elsewhere", with(opts("us-east-2a"), func(o *NewClusterOptions) { o.ControlPlaneZones = []string{"us-east-2b"} }),
			`control-plane zone "us-east-2b" is not one of`},
		{"bad network", with(opts("us-east-2a"), func(o *NewClusterOptions) { o.NetworkCIDR = "10.0.0.0/33" }), "--network-cidr"},
		{"tiny network", with(opts("us-east-2a"), func(o *NewClusterOptions) { o.NetworkCIDR = "10.0.0.0/28" }), "too small"},
		{"unknown cloud sizes", with(opts("fsn1"), func(o *NewClusterOptions) { o.CloudProvider = "hetzner" }), "specify --node-size"},
		{"unsupported cloud", with(opts("us-east-2a"), func(o *NewClusterOptions) {
			o.CloudProvider, o.NodeSize, o.ControlPlaneSize = "vmware", "big", "big"
		}), `unsupported --cloud "vmware": use one of aws, gce, azure`},
		{"cloud in capitals", with(opts("us-east-2a"), func(o *NewClusterOptions) { o.CloudProvider = "AWS" }), `unsupported --cloud "AWS"`},
		{"GCE zones in two regions", with(opts("us-central1-a", "europe-west4-b"), func(o *NewClusterOptions) { o.CloudProvider = "gce" }),
			"--zones span regions us-central1 (us-central1-a) and europe-west4 (europe-west4-b)"},
		{"an AWS zone on GCE", with(opts("us-east-2a"), func(o *NewClusterOptions) { o.CloudProvider = "gce" }),
			`--zones: "us-east-2a" is not a GCE zone (e.g. us-central1-a)`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := NewCluster(tc.opts)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}

// AWS zones become the subnets' zones, which Check holds to the cloud's rules with their field paths.
func TestNewClusterZonesChecked(t *testing.T) {
	cases := []struct {
		zones []string
		want  string
	}{
		{[]string{"us-east-2a", "us-west-2b", "us-east-2c"},
			`spec.subnets[1].zone: Invalid value: "us-west-2b": region us-west-2 differs from region us-east-2 of spec.subnets[0].zone "us-east-2a": a cluster lies in one region`},
		{[]string{"us-east-2"}, `spec.subnets[0].zone: Invalid value: "us-east-2": is not an AWS availability zone (e.g. us-east-2a)`},
		{[]string{"mars-1a"}, `spec.subnets[0].zone: Invalid value: "mars-1a": is not an AWS availability zone`},
	}
	for _, tc := range cases {
		t.Run(strings.Join(tc.zones, ","), func(t *testing.T) {
			c, groups, err := NewCluster(NewClusterOptions{Name: "a.example.com", Zones: tc.zones})
			require.NoError(t, err)
			assert.ErrorContains(t, Check(c, groups, "memfs://test", true).Err(c.Name, nil, nil), tc.want)
		})
	}
}

// Zones of one region on each cloud, and the versions at the ends of the supported range, are
// accepted; a GCE cluster gets one regional subnet and groups that name their zones, as in kops.
func TestNewClusterAccepts(t *testing.T) {
	for _, o := range []NewClusterOptions{
		{Zones: []string{"us-gov-west-1a", "us-gov-west-1b"}},
		{Zones: []string{"us-west-2a", "us-west-2-lax-1a"}, KubernetesVersion: "1.30.0"},
		{Zones: []string{"eu-central-1a"}, KubernetesVersion: "v1.36.9"},
		{Zones: []string{"nova"}, CloudProvider: "openstack", NodeSize: "m1.large", ControlPlaneSize: "m1.medium"},
	} {
		o.Name = "ok.example.com"
		t.Run(strings.Join(o.Zones, ","), func(t *testing.T) {
			c, groups, err := NewCluster(o)
			require.NoError(t, err)
			assert.NoError(t, Check(c, groups, "memfs://test", true).Err(c.Name, nil, nil))
		})
	}

	c, groups, err := NewCluster(NewClusterOptions{Name: "g.example.com", CloudProvider: "gce", Zones: []string{"us-central1-a", "us-central1-b"}})
	require.NoError(t, err)
	assert.Equal(t, []kops.ClusterSubnetSpec{{Name: "us-central1", Region: "us-central1", CIDR: "172.20.32.0/19", Type: kops.SubnetTypePublic}}, c.Spec.Subnets)
	require.Len(t, groups, 4)
	for _, g := range groups {
		assert.Equal(t, []string{"us-central1"}, g.Spec.Subnets, g.Name)
		require.Len(t, g.Unmodeled, 1, g.Name)
		assert.Equal(t, "spec.zones", g.Unmodeled[0].Path.String())
	}
	assert.Equal(t, []interface{}{"us-central1-b"}, groups[1].Unmodeled[0].Value)
	assert.Equal(t, "nodes-us-central1-a", groups[2].Name)
	assert.Equal(t, []interface{}{"us-central1-a"}, groups[2].Unmodeled[0].Value)
	assert.Equal(t, []interface{}{"us-central1-b"}, groups[3].Unmodeled[0].Value)
	assert.Empty(t, validation.ValidateClusterAndInstanceGroups(kops.CompleteCluster(c, "memfs://test"), groups))
}

// As kops: a group of nodes per zone, the nodes shared out with the first zones taking one more,
// one node per zone when not counted; each role takes its own image before the common one.
func TestNewClusterNodeGroupsPerZone(t *testing.T) {
	zones := []string{"us-east-2a", "us-east-2b", "us-east-2c"}
	cases := []struct {
		count int32
		sizes []int32
	}{{0, []int32{1, 1, 1}}, {3, []int32{1, 1, 1}}, {5, []int32{2, 2, 1}}, {1, []int32{1, 0, 0}}, {7, []int32{3, 2, 2}}}
	for _, tc := range cases {
		_, groups, err := NewCluster(NewClusterOptions{Name: "n.example.com", Zones: zones, NodeCount: tc.count,
			Image: "common", NodeImage: "node-image"})
		require.NoError(t, err)
		var sizes []int32
		for _, g := range groups {
			if g.Spec.Role != kops.RoleNode {
				assert.Equal(t, "common", g.Spec.Image, g.Name)
				continue
			}
			assert.Equal(t, "nodes-"+g.Spec.Subnets[0], g.Name)
			assert.Equal(t, *g.Spec.MinSize, *g.Spec.MaxSize)
			assert.Equal(t, "node-image", g.Spec.Image, g.Name)
			sizes = append(sizes, *g.Spec.MinSize)
		}
		assert.Equal(t, tc.sizes, sizes, "--node-count %d", tc.count)
	}
}
