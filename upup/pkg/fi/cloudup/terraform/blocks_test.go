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
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestTopLevelBlocks: a brace in a string, a template or a comment does not end a block; what the
// cutter cannot cut with certainty is refused, never cut wrong.
func TestTopLevelBlocks(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want map[string]string // nil: refused
	}{
		{"blocks and blank lines", "provider \"aws\" {\n  region = \"x\"\n}\n\nresource \"a\" \"b\" {}\n",
			map[string]string{"provider aws": "provider \"aws\" {\n  region = \"x\"\n}\n", "resource a.b": "resource \"a\" \"b\" {}\n"}},
		{"braces in strings, templates and comments", "resource \"a\" \"b\" {\n  s = \"}${\"}\"}$${\" # }\n  /* } */\n  // }\n}\nterraform {\n}\n",
			map[string]string{"resource a.b": "resource \"a\" \"b\" {\n  s = \"}${\"}\"}$${\" # }\n  /* } */\n  // }\n}\n", "terraform": "terraform {\n}\n"}},
		{"an empty file", "", map[string]string{}},
		{"a top-level attribute", "a = 1\nresource \"x\" {}\n", nil},
		{"a top-level comment", "# kubernetes.tf\nresource \"x\" {}\n", nil},
		{"a heredoc", "resource \"x\" \"y\" {\n  s = <<EOT\n}\nEOT\n}\n", nil},
		{"an unclosed block", "resource \"x\" \"y\" {\n", nil},
		{"an unclosed string", "resource \"x\" \"y\" {\n  s = \"}\n}\n", nil},
		{"something after a block on its line", "resource \"x\" \"y\" {} resource \"x\" \"z\" {}\n", nil},
		{"a label that is no name", "resource \"x\" \"a\\\"b\" {}\n", nil},
		{"two blocks of one name", "resource \"x\" \"y\" {}\nresource \"x\" \"y\" {}\n", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := topLevelBlocks([]byte(tt.src))
			assert.Equal(t, tt.want != nil, ok)
			assert.Equal(t, tt.want, got)
		})
	}
}
