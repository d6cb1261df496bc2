package metricsserveroperator

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The user docs show the operator's rights as generated from its descriptor, so they cannot drift.
func TestDocsShowTheRightsTable(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "..", "..", "docs", "metrics-server.md"))
	require.NoError(t, err)
	assert.Contains(t, string(doc), Descriptor().RightsMarkdown(), "docs/metrics-server.md must contain RightsMarkdown() verbatim")
}
