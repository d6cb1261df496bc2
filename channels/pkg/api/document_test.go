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

package api

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A channel file is exactly one YAML document, counted as kubectl counts: documents that are empty
// or null (a leading or trailing ---, comments only, ~) do not count. A second document, which a
// reader taking the first would ignore with its hashes, and a file without any are refused, naming
// the file (or, for a package channel, its caller does) and the line of each extra document.
func TestAChannelFileIsOneDocument(t *testing.T) {
	bootstrap := channelOf(addon("name: a", "manifest: a/v1.yaml", "manifestHash: "+hashX))
	// What the old reader ignored: a second channel whose hash matches no manifest.
	otherBootstrap := channelOf(addon("name: b", "manifest: b/v1.yaml", "manifestHash: bad"))
	packages := "apiVersion: kops.k8s.io/v1alpha2\nkind: Channel\nspec:\n  packages:\n  - name: a\n    version: 1.0.0\n"
	otherPackages := "apiVersion: kops.k8s.io/v1alpha2\nkind: Channel\nspec:\n  packages:\n  - name: ../b\n    version: x\n"

	parsers := map[string]struct {
		good, other string
		parse       func([]byte) error
		where       string // how a line is named in the message
	}{
		"bootstrap channel": {bootstrap, otherBootstrap, func(d []byte) error { _, err := ParseAddonsFile("src", d); return err }, "src:%d: "},
		"package channel":   {packages, otherPackages, func(d []byte) error { _, err := ParseChannel(d); return err }, "line %d: "},
	}
	type input struct{ good, other string }
	lines := func(s string) int { return strings.Count(s, "\n") }
	cases := []struct {
		name string
		data func(in input) string
		// want returns the substrings of the error, nil when the file is accepted.
		want func(in input, where string) []string
	}{
		{"one document", func(in input) string { return in.good }, nil},
		{"leading separator", func(in input) string { return "---\n" + in.good }, nil},
		{"leading separator with a comment, and empty documents before", func(in input) string { return "--- # channel\n---\n# nothing\n---\n" + in.good }, nil},
		{"trailing separator", func(in input) string { return in.good + "---\n" }, nil},
		{"trailing separator, blanks and comments", func(in input) string { return in.good + "---  \n\n# the end\n   \n" }, nil},
		{"end marker", func(in input) string { return in.good + "...\n" }, nil},
		{"end marker, then an empty document", func(in input) string { return in.good + "...\n---\n# none\n" }, nil},
		{"comments-only second document", func(in input) string { return in.good + "---\n# nothing here\n---\n" }, nil},
		{"null second document", func(in input) string { return in.good + "---\n~\n" }, nil},
		{"second document", func(in input) string { return in.good + "---\n" + in.other }, func(in input, where string) []string {
			return []string{fmt.Sprintf(where, lines(in.good)+2) + "document 2 of 2: a channel file is exactly one YAML document"}
		}},
		{"second document after an end marker", func(in input) string { return in.good + "...\n---\n" + in.other }, func(in input, where string) []string {
			return []string{fmt.Sprintf(where, lines(in.good)+3) + "document 2 of 2"}
		}},
		{"second document after comments-only documents", func(in input) string { return in.good + "---\n# a\n---\n" + in.other }, func(in input, where string) []string {
			return []string{fmt.Sprintf(where, lines(in.good)+4) + "document 2 of 2"}
		}},
		{"three documents: each extra one named", func(in input) string { return in.good + "---\n" + in.other + "---\n" + in.good }, func(in input, where string) []string {
			return []string{fmt.Sprintf(where, lines(in.good)+2) + "document 2 of 3", fmt.Sprintf(where, lines(in.good)+lines(in.other)+3) + "document 3 of 3"}
		}},
		{"content after an end marker", func(in input) string { return in.good + "...\n" + in.other }, func(in input, where string) []string {
			return []string{"document 2: yaml: line " + fmt.Sprint(lines(in.good)+1)}
		}},
		{"syntax error in the second document", func(in input) string { return in.good + "---\nkind: [\n" }, func(in input, where string) []string {
			return []string{"document 2: yaml: line"}
		}},
		{"empty file", func(input) string { return "" }, func(input, string) []string { return []string{"the file holds no YAML document"} }},
		{"only a separator", func(input) string { return "---\n" }, func(input, string) []string { return []string{"the file holds no YAML document"} }},
		{"only comments", func(input) string { return "# a channel\n\n# to be written\n" }, func(input, string) []string { return []string{"the file holds no YAML document"} }},
		{"only separators, comments and null", func(input) string { return "---\n# a\n---\n~\n...\n" }, func(input, string) []string { return []string{"the file holds no YAML document"} }},
	}
	for pname, p := range parsers {
		for _, tc := range cases {
			t.Run(pname+"/"+tc.name, func(t *testing.T) {
				in := input{p.good, p.other}
				err := p.parse([]byte(tc.data(in)))
				if tc.want == nil {
					require.NoError(t, err)
					return
				}
				require.Error(t, err)
				for _, w := range tc.want(in, p.where) {
					assert.Contains(t, err.Error(), w)
				}
				// Nothing of the extra documents is read: their own problems are not reported.
				assert.NotContains(t, err.Error(), "manifestHash: Invalid value")
				assert.NotContains(t, err.Error(), "spec.packages[0].name")
			})
		}
	}
}
