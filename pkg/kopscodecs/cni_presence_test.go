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

package kopscodecs

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// CNIs modeled only by presence keep every setting a user wrote, and an empty one ("calico: {}")
// survives a round trip too.
func TestCNIPresenceRoundTrip(t *testing.T) {
	cases := []struct {
		name, networking string
		selected         func(*testing.T, []*Object)
	}{
		{"calico with settings", "    calico:\n      crossSubnet: true\n      mtu: 8912\n", func(t *testing.T, o []*Object) {
			assert.NotNil(t, o[0].Cluster.Spec.Networking.Calico)
		}},
		{"empty kubenet", "    kubenet: {}\n", func(t *testing.T, o []*Object) {
			assert.NotNil(t, o[0].Cluster.Spec.Networking.Kubenet)
		}},
		{"kuberouter", "    kuberouter: {}\n", func(t *testing.T, o []*Object) {
			assert.NotNil(t, o[0].Cluster.Spec.Networking.KubeRouter)
		}},
		{"unmodeled romana", "    romana: {}\n", func(t *testing.T, o []*Object) {
			assert.Nil(t, o[0].Cluster.Spec.Networking.Calico)
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			in := []byte("apiVersion: kops.k8s.io/v1alpha2\nkind: Cluster\nmetadata:\n  name: a.example.com\nspec:\n  networking:\n" + tc.networking)
			objs, _, err := Decode("config", in, false)
			require.NoError(t, err)
			require.Len(t, objs, 1)
			tc.selected(t, objs)
			out, err := EncodeCluster(objs[0].Cluster)
			require.NoError(t, err)
			assertSameYAML(t, in, out)
		})
	}
}
