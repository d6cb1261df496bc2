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

	"k8s.io/kops/pkg/apis/kops"
	"k8s.io/kops/pkg/client"
	"k8s.io/kops/pkg/featureflag"
	"k8s.io/kops/util/pkg/vfs"
)

// A shared subnet (named by id) may leave its zone to the cloud, as in kops's
// private-shared-subnet spec: update loads it and says where the zone comes from, once per such
// subnet and only for those.
func TestSharedSubnetWithoutZoneLoadsWithANote(t *testing.T) {
	cases := []struct {
		name    string
		subnets []kops.ClusterSubnetSpec
		want    []string
	}{
		{"zones written", []kops.ClusterSubnetSpec{
			{Name: "us-east-2a", ID: "subnet-12345678", Zone: "us-east-2a", CIDR: "172.20.32.0/19", Type: kops.SubnetTypePrivate},
			{Name: "utility-us-east-2a", ID: "subnet-abcdef", Zone: "us-east-2a", CIDR: "172.20.4.0/22", Type: kops.SubnetTypeUtility},
		}, nil},
		{"utility subnet without a zone", []kops.ClusterSubnetSpec{
			{Name: "us-east-2a", ID: "subnet-12345678", Zone: "us-east-2a", CIDR: "172.20.32.0/19", Type: kops.SubnetTypePrivate},
			{Name: "utility-us-east-2a", ID: "subnet-abcdef", CIDR: "172.20.4.0/22", Type: kops.SubnetTypeUtility},
		}, []string{`spec.subnets[1].zone: not set for shared subnet "utility-us-east-2a" (subnet-abcdef): kops reads it from the cloud by id`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cluster, groups, err := NewCluster(NewClusterOptions{Name: "shared.example.com", Zones: []string{"us-east-2a"}})
			require.NoError(t, err)
			cluster.Spec.Subnets = c.subnets
			for _, g := range groups {
				g.Spec.Subnets = []string{"us-east-2a"}
			}
			mem := &vfs.MemFS{}
			base, err := vfs.ParsePath("memfs://shared", mem)
			require.NoError(t, err)
			clientset := client.New(base)
			require.NoError(t, clientset.CreateCluster(client.NewCluster{Cluster: cluster, InstanceGroups: groups}))

			_, warnings, err := LoadModelContext(clientset, cluster.Name, featureflag.Set{})
			require.NoError(t, err, "kops accepts a shared subnet without a zone")
			var texts []string
			for _, w := range warnings {
				texts = append(texts, w.Text)
			}
			require.Len(t, texts, len(c.want))
			for i, want := range c.want {
				assert.Contains(t, texts[i], want)
			}
		})
	}
}
