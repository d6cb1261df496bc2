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

package manager

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

func withResourceVersion(rv string) *unstructured.Unstructured {
	u := &unstructured.Unstructured{Object: map[string]any{}}
	u.SetResourceVersion(rv)
	return u
}

func TestAppliedStateSkipsOnlyWhatThisProcessLastApplied(t *testing.T) {
	s := newAppliedState()
	s.applied("configmaps/coredns", "h1", "10", "coredns.addons.x-k8s.io")
	for _, tc := range []struct {
		name     string
		hash     string
		cached   *unstructured.Unstructured
		upToDate bool
	}{
		{"same rendering, cache holds what the apply returned", "h1", withResourceVersion("10"), true},
		{"the rendering changed", "h2", withResourceVersion("10"), false},
		{"someone else wrote it since", "h1", withResourceVersion("11"), false},
		{"the cache still lags behind the apply", "h1", withResourceVersion("9"), false},
		{"deleted", "h1", nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.upToDate, s.upToDate("configmaps/coredns", tc.hash, tc.cached))
		})
	}
	assert.False(t, s.upToDate("deployments/coredns", "h1", withResourceVersion("10")), "never applied")
	s.forget("configmaps/coredns")
	assert.False(t, s.upToDate("configmaps/coredns", "h1", withResourceVersion("10")), "forgotten on resync or failure")
	addon, wrote := s.lastAddon("configmaps/coredns")
	assert.True(t, wrote, "a forgotten object was still written by this process")
	assert.Equal(t, "coredns.addons.x-k8s.io", addon, "the addon it was last written under outlives forget")
	_, wrote = s.lastAddon("deployments/coredns")
	assert.False(t, wrote, "never applied")
}

// The hash is of the object's content: the same content hashes the same whatever the order its
// keys were set in, and any change of a value changes it.
func TestObjectHash(t *testing.T) {
	a := &unstructured.Unstructured{Object: map[string]any{"kind": "ConfigMap", "data": map[string]any{"a": "1", "b": "2"}}}
	b := &unstructured.Unstructured{Object: map[string]any{"data": map[string]any{"b": "2", "a": "1"}, "kind": "ConfigMap"}}
	c := &unstructured.Unstructured{Object: map[string]any{"kind": "ConfigMap", "data": map[string]any{"a": "1", "b": "3"}}}
	ha, err := objectHash(a)
	require.NoError(t, err)
	hb, err := objectHash(b)
	require.NoError(t, err)
	hc, err := objectHash(c)
	require.NoError(t, err)
	assert.Equal(t, ha, hb)
	assert.NotEqual(t, ha, hc)
}
