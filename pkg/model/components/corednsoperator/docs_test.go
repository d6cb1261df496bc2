package corednsoperator

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"k8s.io/kops/pkg/apis/kops"
	"k8s.io/kops/pkg/model/components/operator"
)

func readDocs(t *testing.T) string {
	doc, err := os.ReadFile(filepath.Join("..", "..", "..", "..", "docs", "addon-operators.md"))
	require.NoError(t, err)
	return string(doc)
}

// The user docs show the operator's rights as generated from Rights, so they cannot drift.
func TestDocsShowTheRightsTable(t *testing.T) {
	assert.Contains(t, readDocs(t), Descriptor().RightsMarkdown(), "docs/addon-operators.md must contain Descriptor().RightsMarkdown() verbatim")
}

// The user docs show the admission policy generated for a cluster with kops's defaults.
func TestDocsShowThePolicy(t *testing.T) {
	assert.Contains(t, readDocs(t), operator.PolicyMarkdown(renderedScopeWithImage(t, kops.ClusterSpec{}, "").scope),
		"docs/addon-operators.md must contain operator.PolicyMarkdown() of the default cluster verbatim")
}
