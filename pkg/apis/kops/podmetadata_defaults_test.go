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
	"github.com/stretchr/testify/require"
)

func TestCompletePodMetadataAccess(t *testing.T) {
	port := int32(9000)
	tests := []struct {
		name  string
		cloud string
		in    *PodMetadataAccessSpec
		want  *PodMetadataAccessSpec
	}{
		{"aws blocks by default", "aws", nil, &PodMetadataAccessSpec{Mode: PodMetadataAccessBlock, ModeDefaulted: true}},
		{"gce blocks by default", "gce", nil, &PodMetadataAccessSpec{Mode: PodMetadataAccessBlock, ModeDefaulted: true}},
		{"scaleway blocks by default", "scaleway", nil, &PodMetadataAccessSpec{Mode: PodMetadataAccessBlock, ModeDefaulted: true}},
		{"a cloud without metadata gets no setting", "metal", nil, nil},
		{"no cloud gets no setting", "", nil, nil},
		{"a set mode is kept", "aws", &PodMetadataAccessSpec{Mode: PodMetadataAccessAllow}, &PodMetadataAccessSpec{Mode: PodMetadataAccessAllow}},
		{"an empty mode is filled, hostInterface kept", "aws", &PodMetadataAccessSpec{HostInterface: "veth+"},
			&PodMetadataAccessSpec{Mode: PodMetadataAccessBlock, HostInterface: "veth+", ModeDefaulted: true}},
		{"forward gets proxy, port and namespace restrictions", "aws", &PodMetadataAccessSpec{Mode: PodMetadataAccessForward},
			&PodMetadataAccessSpec{Mode: PodMetadataAccessForward, Forward: &PodMetadataForwardSpec{Proxy: "kube2iam", Port: ptrTo(int32(8181)), NamespaceRestrictions: ptrTo(true)}}},
		{"forward keeps a set port", "aws",
			&PodMetadataAccessSpec{Mode: PodMetadataAccessForward, Forward: &PodMetadataForwardSpec{Port: &port, BaseRoleARN: "arn:aws:iam::123456789012:role/"}},
			&PodMetadataAccessSpec{Mode: PodMetadataAccessForward, Forward: &PodMetadataForwardSpec{Proxy: "kube2iam", Port: ptrTo(int32(9000)), BaseRoleARN: "arn:aws:iam::123456789012:role/", NamespaceRestrictions: ptrTo(true)}}},
		{"forward settings under another mode are left for validation", "aws",
			&PodMetadataAccessSpec{Mode: PodMetadataAccessBlock, Forward: &PodMetadataForwardSpec{}},
			&PodMetadataAccessSpec{Mode: PodMetadataAccessBlock, Forward: &PodMetadataForwardSpec{}}},
		{"a mode on a cloud without metadata is left for validation", "metal", &PodMetadataAccessSpec{Mode: PodMetadataAccessBlock},
			&PodMetadataAccessSpec{Mode: PodMetadataAccessBlock}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := &Cluster{Spec: ClusterSpec{CloudProvider: tc.cloud, PodMetadataAccess: tc.in}}
			before := in.DeepCopy()
			out := CompleteCluster(in, "memfs://test")
			require.NotNil(t, out)
			assert.Equal(t, tc.want, out.Spec.PodMetadataAccess)
			assert.Equal(t, before, in, "the input is not modified")
		})
	}
}

// kube2iam's namespace restrictions are on in mode Forward unless the cluster says false: CompleteCluster,
// which update cluster and get cluster --full go through, fills the field, and NamespaceRestrictionsOn,
// which the model reads, agrees with it.
func TestCompleteNamespaceRestrictions(t *testing.T) {
	tests := []struct {
		name string
		set  *bool
		want bool
	}{
		{"unset is on", nil, true},
		{"true is on", ptrTo(true), true},
		{"false is off", ptrTo(false), false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := &Cluster{Spec: ClusterSpec{CloudProvider: "aws", PodMetadataAccess: &PodMetadataAccessSpec{
				Mode: PodMetadataAccessForward, Forward: &PodMetadataForwardSpec{NamespaceRestrictions: tc.set}}}}
			out := CompleteCluster(in, "memfs://test")
			forward := out.Spec.PodMetadataAccess.Forward
			require.NotNil(t, forward.NamespaceRestrictions, "the completed spec shows the effective value")
			assert.Equal(t, tc.want, *forward.NamespaceRestrictions)
			assert.Equal(t, tc.want, forward.NamespaceRestrictionsOn())
			assert.Equal(t, tc.want, in.Spec.PodMetadataAccess.Forward.NamespaceRestrictionsOn(), "the stored spec means the same")
			assert.Equal(t, tc.set, in.Spec.PodMetadataAccess.Forward.NamespaceRestrictions, "the input is not modified")
		})
	}
	var none *PodMetadataForwardSpec
	assert.True(t, none.NamespaceRestrictionsOn(), "no forward block at all is the default too")
}

func TestInstanceMetadataFor(t *testing.T) {
	group := func(m *InstanceMetadataSpec) *InstanceGroup {
		return &InstanceGroup{Spec: InstanceGroupSpec{InstanceMetadata: m}}
	}
	tests := []struct {
		name string
		mode string
		ig   *InstanceGroup
		want InstanceMetadataOptions
	}{
		{"block", PodMetadataAccessBlock, group(nil), InstanceMetadataOptions{HTTPTokens: "required", HopLimit: 1}},
		{"forward", PodMetadataAccessForward, group(nil), InstanceMetadataOptions{HTTPTokens: "required", HopLimit: 1}},
		{"no mode is kops's default", "", group(nil), InstanceMetadataOptions{HTTPTokens: "required", HopLimit: 1}},
		{"allow lets pods get a token", PodMetadataAccessAllow, group(&InstanceMetadataSpec{}), InstanceMetadataOptions{HTTPTokens: "required", HopLimit: 2}},
		{"bastions run no pods", PodMetadataAccessAllow, &InstanceGroup{Spec: InstanceGroupSpec{Role: RoleBastion}},
			InstanceMetadataOptions{HTTPTokens: "required", HopLimit: 1}},
		{"group values win", PodMetadataAccessAllow,
			group(&InstanceMetadataSpec{HTTPTokens: ptrTo("optional"), HTTPPutResponseHopLimit: ptrTo(int64(3))}),
			InstanceMetadataOptions{HTTPTokens: "optional", HopLimit: 3, TokensSet: true, HopLimitSet: true}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := ClusterSpec{}
			if tc.mode != "" {
				s.PodMetadataAccess = &PodMetadataAccessSpec{Mode: tc.mode}
			}
			assert.Equal(t, tc.want, s.InstanceMetadataFor(tc.ig))
		})
	}
}

func ptrTo[T any](v T) *T { return &v }
