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

package terraform

import (
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclwrite"
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

// FuzzBlockDiff: `kops update cluster --target terraform --out DIR` diffs DIR/kubernetes.tf
// block by block against what it would write. Cutting it must not panic and must work in
// proportion to the input; a file diffed against itself shows no change; each block it is cut
// into is cut alone to one block of the same name and text, so that a hunk shows a whole resource
// and nothing else; and where HCL's own parser reads the file, it finds the same blocks.
func FuzzBlockDiff(f *testing.F) {
	for _, s := range []string{
		fuzzDesired,
		"locals {\n  a = 1 # one\n}\n\n/* c */\nresource \"x\" \"y\" {\n  s = <<EOT\nhello\nEOT\n  l = [for v in var.l : v]\n}\n",
		"a = 1\nresource \"x\" {}\n",
		"resource \"x\" \"y\" {\nresource \"x\" \"y\" {}\n",
		"resource \"a\" \"b\" {\n  s = \"}${\"}\"}$${\" # }\n  /* } */\n  // }\n}\n\ndata x y {}\n",
		"resource \"x\" \"y\" {\n\ta  =  1\n\tb\t= [1,  2]\n}\n",
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
		if parsed, ok := hclwriteBlocks(current); ok {
			assert.Equal(t, parsed, formatted(blocks), "the blocks HCL's parser finds")
		}
	})
}

// formatted is blocks with each text as hclwrite.Format lays it out: hclwrite rebuilds a block's
// text with its own spacing (tabs and runs of spaces become single spaces), so the texts are
// compared as terraform fmt would write them.
func formatted(blocks map[string]string) map[string]string {
	out := map[string]string{}
	for name, text := range blocks {
		out[name] = string(hclwrite.Format([]byte(strings.TrimSpace(text)))) + "\n"
	}
	return out
}

// hclwriteBlocks is topLevelBlocks as HCL's parser sees the file, for the files it parses without
// a top-level attribute or comment, each text formatted as by formatted.
func hclwriteBlocks(src []byte) (map[string]string, bool) {
	f, diags := hclwrite.ParseConfig(src, MainFile, hcl.InitialPos)
	if diags.HasErrors() || len(f.Body().Attributes()) > 0 {
		return nil, false
	}
	blocks := map[string]string{}
	for _, b := range f.Body().Blocks() {
		name := strings.TrimSpace(b.Type() + " " + strings.Join(b.Labels(), "."))
		text := string(hclwrite.Format([]byte(strings.TrimSpace(string(b.BuildTokens(nil).Bytes()))))) + "\n"
		if _, dup := blocks[name]; dup {
			return nil, false
		}
		blocks[name] = text
	}
	return blocks, true
}
