package corefile

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The user docs show the reach table as generated from the checker's, so they cannot drift.
func TestDocsShowTheReachTable(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "addon-operators.md"))
	require.NoError(t, err)
	assert.Contains(t, string(doc), ReachMarkdown(), "docs/addon-operators.md must contain ReachMarkdown() verbatim")
}
