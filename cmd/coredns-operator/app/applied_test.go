package app

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
	s.applied("configmaps/coredns", "h1", "10")
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
}

func TestObjectHashFollowsTheRendering(t *testing.T) {
	objects, err := desiredObjects(testSpec, DefaultFacts())
	require.NoError(t, err)
	a, err := objectHash(objects[1])
	require.NoError(t, err)
	again, err := desiredObjects(testSpec, DefaultFacts())
	require.NoError(t, err)
	b, err := objectHash(again[1])
	require.NoError(t, err)
	assert.Equal(t, a, b, "the same rendering hashes the same")
	changed := testSpec
	changed.Corefile += "# more\n"
	other, err := desiredObjects(changed, DefaultFacts())
	require.NoError(t, err)
	c, err := objectHash(other[1])
	require.NoError(t, err)
	assert.NotEqual(t, a, c)
	d, err := objectHash(other[3])
	require.NoError(t, err)
	e, err := objectHash(objects[3])
	require.NoError(t, err)
	assert.Equal(t, e, d, "a Corefile change leaves the Deployment as it was: only the ConfigMap is applied")
}
