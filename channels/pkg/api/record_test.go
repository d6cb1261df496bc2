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

package api

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func refs(n int) []ObjectRef {
	out := make([]ObjectRef, 0, n)
	for i := range n {
		out = append(out, ObjectRef{Kind: "ConfigMap", Namespace: "team-" + fmt.Sprint(i%3), Name: fmt.Sprintf("generated-config-map-%05d", i)})
	}
	return out
}

func TestChannelVersionKopsFormat(t *testing.T) {
	// A record as kops's channels writes it.
	v, err := ParseChannelVersion(`{"channel":"s3://bucket/c.example.com/addons/bootstrap-channel.yaml","id":"k8s-1.12","manifestHash":"abc","systemGeneration":1}`)
	require.NoError(t, err)
	assert.Equal(t, "k8s-1.12", v.ID)
	assert.Equal(t, "abc", v.ManifestHash)
	assert.Equal(t, 1, v.SystemGeneration)
	require.NotNil(t, v.Channel)
	assert.Equal(t, `{"channel":"s3://bucket/c.example.com/addons/bootstrap-channel.yaml","id":"k8s-1.12","manifestHash":"abc","systemGeneration":1}`, v.Encode())

	_, err = ParseChannelVersion("not json")
	assert.Error(t, err)
}

func TestInventoryRoundTrip(t *testing.T) {
	cases := []struct {
		name    string
		refs    []ObjectRef
		gzipped bool
	}{
		{"none", nil, false},
		{"kinds of every scope", []ObjectRef{
			{Group: "apps", Kind: "Deployment", Namespace: "kube-system", Name: "coredns"},
			{Kind: "Service", Namespace: "kube-system", Name: "kube-dns"},
			{Group: "rbac.authorization.k8s.io", Kind: "ClusterRole", Name: "system:coredns"},
			{Group: "addons.x-k8s.io", Kind: "CoreDNS", Namespace: "kube-system", Name: "coredns"},
			{Kind: "Service", Namespace: "kube-system", Name: "kube-dns"}, // twice: kept once
		}, false},
		{"a large addon is gzipped", refs(5000), true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			v := &ChannelVersion{FieldManager: "kops-channels"}
			require.NoError(t, v.SetInventory(tc.refs))
			assert.Equal(t, tc.gzipped, v.InventoryGzip != "")
			back, err := ParseChannelVersion(v.Encode())
			require.NoError(t, err)
			assert.True(t, back.Ours("kops-channels"), "a record with an inventory, even an empty one, is ours")
			got, err := back.Objects()
			require.NoError(t, err)
			want := NewInventory(tc.refs).Refs()
			assert.Equal(t, want, got)
			assert.Len(t, got, len(NewInventory(tc.refs).Refs()))
		})
	}
}

// Records kops's channels writes (or an older channels did) are not ours; neither is one written
// through another field manager.
func TestOurs(t *testing.T) {
	kops, err := ParseChannelVersion(`{"channel":"s3://b/c/addons/bootstrap-channel.yaml","id":"k8s-1.16","manifestHash":"abc","systemGeneration":1}`)
	require.NoError(t, err)
	assert.False(t, kops.Ours("kops-channels"))
	assert.False(t, (*ChannelVersion)(nil).Ours("kops-channels"))
	ours := &ChannelVersion{FieldManager: "kops-channels", Inventory: &Inventory{}}
	assert.True(t, ours.Ours("kops-channels"))
	assert.False(t, ours.Ours("someone-else"))
	noInventory := &ChannelVersion{FieldManager: "kops-channels"}
	assert.False(t, noInventory.Ours("kops-channels"))
}
