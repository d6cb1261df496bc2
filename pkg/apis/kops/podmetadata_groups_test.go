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

package kops

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestPodMetadataFor(t *testing.T) {
	hop := func(n int64) *InstanceMetadataSpec { return &InstanceMetadataSpec{HTTPPutResponseHopLimit: &n} }
	tokens := func(s string) *InstanceMetadataSpec { return &InstanceMetadataSpec{HTTPTokens: &s} }
	group := func(role InstanceGroupRole, m *InstanceMetadataSpec) *InstanceGroup {
		return &InstanceGroup{Spec: InstanceGroupSpec{Role: role, InstanceMetadata: m}}
	}
	cases := []struct {
		name    string
		written *PodMetadataAccessSpec
		ig      *InstanceGroup
		mode    string
		derived bool
		reason  string
	}{
		{"default, group writes nothing", nil, group(RoleNode, nil), PodMetadataAccessBlock, false, "the default"},
		{"default, group writes hop limit 1", nil, group(RoleNode, hop(1)), PodMetadataAccessBlock, false, "the default"},
		{"default, nodes with hop limit 3 keep access", nil, group(RoleNode, hop(3)), PodMetadataAccessAllow, true,
			"the group writes spec.instanceMetadata.httpPutResponseHopLimit: 3"},
		{"default, nodes with IMDSv1 keep access", nil, group(RoleNode, tokens(HTTPTokensOptional)), PodMetadataAccessAllow, true,
			"spec.instanceMetadata.httpTokens: optional"},
		{"default, a control plane with kops's old hop limit 3 stays blocked", nil, group(RoleControlPlane, hop(3)), PodMetadataAccessBlock, false, "the default"},
		{"a written Block is never relaxed", &PodMetadataAccessSpec{Mode: PodMetadataAccessBlock}, group(RoleNode, hop(3)), PodMetadataAccessBlock, false, "spec.podMetadataAccess.mode"},
		{"a written Forward is the group's", &PodMetadataAccessSpec{Mode: PodMetadataAccessForward}, group(RoleNode, nil), PodMetadataAccessForward, false, "spec.podMetadataAccess.mode"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			completed := CompleteCluster(&Cluster{Spec: ClusterSpec{CloudProvider: "aws", PodMetadataAccess: c.written}}, "memfs://t")
			got := completed.Spec.PodMetadataFor(c.ig)
			assert.Equal(t, c.mode, got.Mode)
			assert.Equal(t, c.derived, got.Derived)
			assert.Contains(t, got.Reason, c.reason)
		})
	}
}
