package cloudup

import (
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
			groups:  []string{"control-plane-us-east-2a", "nodes"},
		},
		{
			name:    "three zones, one control plane",
			opts:    NewClusterOptions{Name: "c.example.com", Zones: []string{"a1", "b1", "c1"}, ControlPlaneZones: []string{"b1"}, NodeCount: 3},
			subnets: []string{"172.20.32.0/19", "172.20.64.0/19", "172.20.96.0/19"},
			groups:  []string{"control-plane-b1", "nodes"},
		},
		{
			name:    "eight zones need smaller blocks",
			opts:    NewClusterOptions{Name: "c.example.com", Zones: []string{"z1", "z2", "z3", "z4", "z5", "z6", "z7", "z8"}, ControlPlaneZones: []string{"z1"}, NetworkCIDR: "10.0.0.0/16"},
			subnets: []string{"10.0.16.0/20", "10.0.32.0/20", "10.0.48.0/20", "10.0.64.0/20", "10.0.80.0/20", "10.0.96.0/20", "10.0.112.0/20", "10.0.128.0/20"},
			groups:  []string{"control-plane-z1", "nodes"},
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
	cases := []struct {
		name string
		opts NewClusterOptions
		want string
	}{
		{"no zones", NewClusterOptions{Name: "a.b"}, "must specify at least one zone"},
		{"zone twice", NewClusterOptions{Name: "a.b", Zones: []string{"x", "x"}}, `zone "x" is listed twice`},
		{"control plane elsewhere", NewClusterOptions{Name: "a.b", Zones: []string{"x"}, ControlPlaneZones: []string{"y"}}, `control-plane zone "y" is not one of`},
		{"bad network", NewClusterOptions{Name: "a.b", Zones: []string{"x"}, NetworkCIDR: "10.0.0.0/33"}, "--network-cidr"},
		{"tiny network", NewClusterOptions{Name: "a.b", Zones: []string{"x"}, NetworkCIDR: "10.0.0.0/28"}, "too small"},
		{"unknown cloud sizes", NewClusterOptions{Name: "a.b", Zones: []string{"x"}, CloudProvider: "hetzner"}, "specify --node-size"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := NewCluster(tc.opts)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}
