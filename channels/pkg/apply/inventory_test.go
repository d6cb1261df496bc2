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

package apply

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"k8s.io/kops/channels/pkg/api"
)

func refs(n int) []api.ObjectRef {
	out := make([]api.ObjectRef, 0, n)
	for i := range n {
		out = append(out, api.ObjectRef{Kind: "ConfigMap", Namespace: "team-" + fmt.Sprint(i%3), Name: fmt.Sprintf("generated-config-map-%05d", i)})
	}
	return out
}

// A record must leave room on its namespace (256 KiB of annotations in all) for the others: 5000
// objects fit in a small part of it.
func TestLargeAddonRecordIsCompact(t *testing.T) {
	a := &Applier{opts: Options{FieldManager: "kops-channels"}}
	addon := &Addon{}
	addon.Spec.Name, addon.Spec.ID, addon.Spec.ManifestHash = "many.example.com", "v1", "abc"
	v, err := a.newRecord(&Channel{Location: "s3://bucket/c/addons/bootstrap-channel.yaml"}, addon, refs(5000))
	require.NoError(t, err)
	size := len(v.Encode())
	assert.Less(t, size, 32<<10, "record of 5000 objects: %d bytes", size)
	t.Logf("record of 5000 objects: %d bytes", size)
}

// An addon too large to be recorded is refused, by name, before anything is applied.
func TestTooLargeRecordIsRefused(t *testing.T) {
	a := &Applier{opts: Options{FieldManager: "kops-channels"}}
	addon := &Addon{}
	addon.Spec.Name = "huge.example.com"
	var many []api.ObjectRef
	for i := range 20000 {
		// names that do not compress: every one different in its first characters
		many = append(many, api.ObjectRef{Kind: "Secret", Namespace: "x", Name: fmt.Sprintf("%x-%d", uint32(i)*2654435761, i)})
	}
	_, err := a.newRecord(&Channel{Location: "memfs://c"}, addon, many)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "split the addon")
}

// kops's channels reads a record with a plain json.Unmarshal into its own ChannelVersion: our
// record must decode there with every field kops wrote, whatever we add.
func TestKopsReadsOurRecord(t *testing.T) {
	a := &Applier{opts: Options{FieldManager: "kops-channels"}}
	addon := &Addon{}
	addon.Spec.Name, addon.Spec.ID, addon.Spec.ManifestHash = "coredns.addons.k8s.io", "k8s-1.12", "abc"
	for _, n := range []int{3, 5000} {
		v, err := a.newRecord(&Channel{Location: "s3://b/c/addons/bootstrap-channel.yaml"}, addon, refs(n))
		require.NoError(t, err)
		var kopsRecord struct {
			Channel          *string `json:"channel,omitempty"`
			ID               string  `json:"id,omitempty"`
			ManifestHash     string  `json:"manifestHash,omitempty"`
			SystemGeneration int     `json:"systemGeneration,omitempty"`
		}
		require.NoError(t, json.Unmarshal([]byte(v.Encode()), &kopsRecord))
		assert.Equal(t, "k8s-1.12", kopsRecord.ID)
		assert.Equal(t, "abc", kopsRecord.ManifestHash)
		assert.Equal(t, 1, kopsRecord.SystemGeneration)
		require.NotNil(t, kopsRecord.Channel)
	}
}

func TestAppliedBy(t *testing.T) {
	cases := []struct {
		name    string
		entries []metav1.ManagedFieldsEntry
		want    bool
	}{
		{"our apply", []metav1.ManagedFieldsEntry{{Manager: "kubectl", Operation: metav1.ManagedFieldsOperationUpdate}, {Manager: "kops-channels", Operation: metav1.ManagedFieldsOperationApply}}, true},
		{"our update only (a relabel)", []metav1.ManagedFieldsEntry{{Manager: "kops-channels", Operation: metav1.ManagedFieldsOperationUpdate}}, false},
		{"another manager's apply", []metav1.ManagedFieldsEntry{{Manager: "helm", Operation: metav1.ManagedFieldsOperationApply}}, false},
		{"none", nil, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			o := &unstructured.Unstructured{Object: map[string]interface{}{}}
			o.SetManagedFields(tc.entries)
			assert.Equal(t, tc.want, appliedBy(o, "kops-channels"))
		})
	}
}

func TestGroupByKindAndNamespace(t *testing.T) {
	inv := api.NewInventory([]api.ObjectRef{
		{Kind: "ConfigMap", Namespace: "b", Name: "x"}, {Kind: "ConfigMap", Namespace: "a", Name: "y"},
		{Kind: "ConfigMap", Namespace: "a", Name: "x"}, {Group: "apps", Kind: "Deployment", Namespace: "a", Name: "x"},
	})
	groups := groupByKindAndNamespace(inv.Refs())
	require.Len(t, groups, 3)
	assert.Equal(t, []api.ObjectRef{{Kind: "ConfigMap", Namespace: "a", Name: "x"}, {Kind: "ConfigMap", Namespace: "a", Name: "y"}}, groups[0])
	assert.Equal(t, "b", groups[1][0].Namespace)
	assert.Equal(t, "Deployment", groups[2][0].Kind)
}

func TestInNamespaces(t *testing.T) {
	cases := []struct {
		namespace string
		spec      []string
		want      bool
	}{
		{"a", nil, true},
		{"a", []string{"b", "a"}, true},
		{"c", []string{"b", "a"}, false},
		{"", []string{"b"}, true}, // cluster-scoped objects are not limited by namespaces
	}
	for _, tc := range cases {
		assert.Equal(t, tc.want, inNamespaces(tc.namespace, tc.spec), "%q in %v", tc.namespace, tc.spec)
	}
}

func TestWithout(t *testing.T) {
	a, b := api.ObjectRef{Kind: "ConfigMap", Namespace: "x", Name: "a"}, api.ObjectRef{Kind: "ConfigMap", Namespace: "x", Name: "b"}
	assert.Equal(t, []api.ObjectRef{b}, without([]api.ObjectRef{a, b}, map[string]bool{a.Key(): true}))
	assert.Equal(t, []api.ObjectRef{a, b}, without([]api.ObjectRef{a, b}, nil))
}
