package corednsoperator

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The user docs show the operator's rights as generated from Rights, so they cannot drift.
func TestDocsShowTheRightsTable(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "..", "..", "docs", "addon-operators.md"))
	require.NoError(t, err)
	assert.Contains(t, string(doc), RightsMarkdown(), "docs/addon-operators.md must contain RightsMarkdown() verbatim")
}
