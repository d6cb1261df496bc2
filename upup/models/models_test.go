package models

import (
	"io/fs"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestTemplatesAreEmbedded(t *testing.T) {
	b, err := fs.ReadFile(FS(), "cloudup/resources/addons/coredns.addons.k8s.io/k8s-1.12.yaml.template")
	require.NoError(t, err)
	assert.Contains(t, string(b), "kind: Deployment")
	partials, err := fs.Glob(FS(), Partials)
	require.NoError(t, err)
	assert.NotEmpty(t, partials)
}
