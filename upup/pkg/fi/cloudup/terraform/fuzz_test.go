package terraform

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"k8s.io/kops/util/pkg/allocbound"
)

const fuzzDesired = `provider "aws" {
  region = "us-east-2"
}

resource "aws_launch_template" "nodes-example-com" {
  name = "nodes.example.com"
  metadata_options {
    http_put_response_hop_limit = 1
  }
}
`

// FuzzBlockDiff: `kops update cluster --target terraform --out DIR` diffs DIR/kubernetes.tf, a
// file the user may have edited, block by block against what it would write. Parsing it must not
// panic and must work in proportion to the input; a file diffed against itself shows no change;
// and each block it is cut into parses alone to one block of the same name and text, so that a
// hunk shows a whole resource and nothing else.
func FuzzBlockDiff(f *testing.F) {
	for _, s := range []string{
		fuzzDesired,
		"locals {\n  a = 1 # one\n}\n\n/* c */\nresource \"x\" \"y\" {\n  s = <<EOT\nhello\nEOT\n  l = [for v in var.l : v]\n}\n",
		"a = 1\nresource \"x\" {}\n",
		"resource \"x\" \"y\" {\nresource \"x\" \"y\" {}\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, current []byte) {
		var diff string
		var ok bool
		allocbound.Check(t, len(current), func() { diff, ok = blockDiff(current, []byte(fuzzDesired)) })
		blocks, parsed := topLevelBlocks(current)
		assert.Equal(t, parsed, ok, "the diff is per block exactly when the current file parses")
		if !ok {
			return
		}
		if len(blocks) == 0 {
			assert.NotEmpty(t, diff, "every desired block is new")
		}
		self, ok := blockDiff(current, current)
		require.True(t, ok)
		assert.Empty(t, self, "a file diffed against itself")
		for name, text := range blocks {
			alone, ok := topLevelBlocks([]byte(text))
			require.True(t, ok, "block %s does not parse alone:\n%s", name, text)
			assert.Equal(t, map[string]string{name: text}, alone)
		}
	})
}
