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
	"testing"

	"github.com/stretchr/testify/assert"

	"k8s.io/kops/pkg/apis/kops"
)

func TestZoneRegion(t *testing.T) {
	tests := []struct {
		cloud, zone, region string
		ok                  bool
	}{
		{"aws", "us-east-2a", "us-east-2", true},
		{"aws", "us-gov-west-1b", "us-gov-west-1", true},
		{"aws", "us-isob-east-1a", "us-isob-east-1", true},
		{"aws", "eusc-de-east-1a", "eusc-de-east-1", true},
		{"aws", "us-west-2-lax-1a", "us-west-2", true},
		{"aws", "mars-1a", "", false},
		{"aws", "us-east-2", "", false},
		{"aws", "US-EAST-2A", "", false},
		{"aws", "us-central1-a", "", false},
		{"gce", "us-central1-a", "us-central1", true},
		{"gce", "northamerica-northeast1-c", "northamerica-northeast1", true},
		{"gce", "us-east-2a", "", false},
		{"gce", "us-central1", "", false},
		{"openstack", "nova", "", true},
		{"hetzner", "fsn1", "", true},
	}
	for _, tc := range tests {
		t.Run(tc.cloud+" "+tc.zone, func(t *testing.T) {
			region, problem := ZoneRegion(tc.cloud, tc.zone)
			assert.Equal(t, tc.region, region)
			assert.Equal(t, tc.ok, problem == "", problem)
		})
	}
}

// Every way a subnet can be placed that kops accepts is accepted; subnets of two regions, and zones
// or regions that are not names of the cloud's, are refused at the field that says so.
func TestValidateSubnetPlacement(t *testing.T) {
	subnets := func(cloud string, s ...kops.ClusterSubnetSpec) func(c *kops.Cluster) {
		return func(c *kops.Cluster) {
			c.Spec.CloudProvider = cloud
			c.Spec.NetworkCIDR = ""
			for i := range s {
				s[i].Name = string(rune('a' + i))
				s[i].Type = kops.SubnetTypePrivate
			}
			c.Spec.Subnets = s
		}
	}
	zone := func(z string) kops.ClusterSubnetSpec { return kops.ClusterSubnetSpec{Zone: z} }
	region := func(r string) kops.ClusterSubnetSpec { return kops.ClusterSubnetSpec{Region: r} }
	tests := []struct {
		name   string
		mutate func(c *kops.Cluster)
		want   []want
	}{
		{"aws: zones of one region, a Local Zone among them", subnets("aws", zone("us-west-2a"), zone("us-west-2b"), zone("us-west-2-lax-1a")), nil},
		{"aws: a shared subnet named by id needs no zone", subnets("aws", zone("us-east-2a"), kops.ClusterSubnetSpec{ID: "subnet-0123"}), nil},
		{"gce: one regional subnet", subnets("gce", region("europe-west4")), nil},
		{"azure: subnets of one region", subnets("azure", region("eastus"), region("eastus")), nil},
		{"openstack: regions are not compared, as in kops", subnets("openstack", region("RegionOne"), region("RegionTwo")), nil},
		{"hetzner: zones name no region", subnets("hetzner", zone("fsn1"), zone("nbg1")), nil},

		{"aws: a zone of no cloud", subnets("aws", zone("mars-1a")),
			[]want{{invalid, "spec.subnets[0].zone", "is not an AWS availability zone (e.g. us-east-2a)"}}},
		{"aws: a region given as a zone", subnets("aws", zone("us-east-2")),
			[]want{{invalid, "spec.subnets[0].zone", "is not an AWS availability zone"}}},
		{"aws: zones of two regions", subnets("aws", zone("us-east-2a"), zone("us-east-2b"), zone("us-west-2a")),
			[]want{{invalid, "spec.subnets[2].zone", `region us-west-2 differs from region us-east-2 of spec.subnets[0].zone "us-east-2a": a cluster lies in one region`}}},
		{"aws: neither zone nor id", subnets("aws", zone("us-east-2a"), kops.ClusterSubnetSpec{}),
			[]want{{required, "spec.subnets[1].zone", "a shared subnet with an id may leave it out"}}},
		{"gce: no region", subnets("gce", kops.ClusterSubnetSpec{}),
			[]want{{required, "spec.subnets[0].region", "GCE subnets are regional"}}},
		{"gce: a zone given as the region", subnets("gce", region("us-central1-a")),
			[]want{{invalid, "spec.subnets[0].region", "is not a GCE region (e.g. us-central1)"}}},
		{"gce: two regions", subnets("gce", region("us-central1"), region("europe-west4")),
			[]want{{invalid, "spec.subnets[1].region", "a cluster lies in one region"}}},
		{"azure: two regions", subnets("azure", region("eastus"), region("westeurope")),
			[]want{{invalid, "spec.subnets[1].region", "a cluster lies in one region"}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assertErrors(t, ValidateCluster(completed(t, tc.mutate)), tc.want...)
		})
	}
}
