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

	"github.com/stretchr/testify/require"

	"k8s.io/kops/pkg/apis/kops"
)

// iam sets kops's spec.iam, which this build keeps unmodeled, as kops's decoder would.
func iam(fields map[string]interface{}) func(c *kops.Cluster) {
	return func(c *kops.Cluster) {
		c.Unmodeled = append(c.Unmodeled, kops.UnmodeledField{Path: kops.FieldPath{{Key: "spec"}, {Key: "iam"}}, Value: fields})
	}
}

func defaultRole(role string) func(c *kops.Cluster) {
	return func(c *kops.Cluster) { c.Spec.PodMetadataAccess.Forward.DefaultRole = role }
}

// TestValidatePodMetadataWithIRSA: of the modes next to IRSA only kube2iam's default role being a
// service account's role is refused (it could never be assumed); Forward next to IRSA is kops
// users' migration off kube2iam and Allow next to IRSA works, so both load.
func TestValidatePodMetadataWithIRSA(t *testing.T) {
	const path = "spec.podMetadataAccess.forward.defaultRole"
	components := iam(map[string]interface{}{"useServiceAccountExternalPermissions": true})
	workloads := iam(map[string]interface{}{"serviceAccountExternalPermissions": []interface{}{
		map[string]interface{}{"name": "uploader", "namespace": "media"},
	}})
	saRole := "uploader.media.sa." + clusterName
	// 69 characters, which kops cuts to 57 and a hash.
	long := "a-rather-long-service-account.some-namespace.sa." + clusterName
	require.Greater(t, len(long), maxIAMRoleName)
	cut := long[:57] + "-q1w2e3"

	tests := []struct {
		name   string
		mutate func(c *kops.Cluster)
		want   []want
	}{
		{"Block with IRSA", then(access("Block"), components), nil},
		{"Allow with IRSA loads (update warns)", then(access("Allow"), components), nil},
		{"Forward with IRSA: the migration off kube2iam", then(access("Forward"), components, defaultRole("pods-default")), nil},
		{"Forward with the workloads' roles", then(access("Forward"), workloads, defaultRole(baseARN+"pods-default")), nil},
		{"default role is a component's role", then(access("Forward"), components, defaultRole(saRole)),
			[]want{{invalid, path, "trusts only that service account's token"}}},
		{"default role ARN is a workload's role", then(access("Forward"), workloads, defaultRole(baseARN+saRole)),
			[]want{{invalid, path, "spec.iam.serviceAccountExternalPermissions"}}},
		{"default role is a cut service account's role", then(access("Forward"), components, defaultRole(cut)),
			[]want{{invalid, path, "kube2iam"}}},
		{"without IRSA no such role is made", then(access("Forward"), defaultRole(saRole)), nil},
		{"IRSA turned off", then(access("Forward"), iam(map[string]interface{}{"useServiceAccountExternalPermissions": false}), defaultRole(saRole)), nil},
		{"another cluster's service account role", then(access("Forward"), components, defaultRole("uploader.media.sa.other.example.com")), nil},
		{"a 64-character name that is no cut one", then(access("Forward"), components, defaultRole(long[:64])), nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assertErrors(t, ValidateCluster(completed(t, tc.mutate)), tc.want...)
		})
	}
}
