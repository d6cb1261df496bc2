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

package corefile

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/coredns/caddy/caddyfile"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// word is a token as CoreDNS's parser reports it: text and line.
type word struct {
	Text string
	Line int
}

// grouped is a server block in the shape caddyfile.Parse returns: addresses, and per directive
// name its words (the name first), every use of the directive one after the other.
type grouped struct {
	Keys  []string
	Words map[string][]word
}

// ourGrouping is what Parse makes of src, in caddyfile.Parse's shape: blocks without addresses
// are dropped, as CoreDNS drops them.
func ourGrouping(f *File) []grouped {
	var out []grouped
	for _, b := range f.Blocks {
		if len(b.Keys) == 0 {
			continue
		}
		g := grouped{Words: map[string][]word{}}
		for _, k := range b.Keys {
			g.Keys = append(g.Keys, k.Text)
		}
		for _, d := range b.Directives {
			ws := append(g.Words[d.Name.Text], word{d.Name.Text, d.Name.Line})
			for _, w := range d.Words {
				ws = append(ws, word{w.Text, w.Line})
			}
			g.Words[d.Name.Text] = ws
		}
		out = append(out, g)
	}
	return out
}

func coreDNSGrouping(blocks []caddyfile.ServerBlock) []grouped {
	var out []grouped
	for _, b := range blocks {
		g := grouped{Keys: b.Keys, Words: map[string][]word{}}
		for name, tokens := range b.Tokens {
			for _, t := range tokens {
				g.Words[name] = append(g.Words[name], word{t.Text, t.Line})
			}
		}
		out = append(out, g)
	}
	return out
}

// comparable says whether CoreDNS's parser can be run on src for a comparison: it would read
// files for an import that names no snippet, substitute environment variables, and read text
// Lex refuses (not UTF-8, an open quote) its own way.
func comparable(src string) bool {
	tokens, err := Lex(src)
	if err != nil {
		return false
	}
	for _, t := range tokens { // a word, not the text: "{\r$X}" is the word {$X}
		if strings.Contains(t.Text, "{$") || strings.Contains(t.Text, "{%") {
			return false
		}
	}
	f, err := Parse(tokens)
	var se *SyntaxError
	if errors.As(err, &se) && strings.Contains(se.Msg, "words longer") {
		return false // our bound, which CoreDNS does not have
	}
	for _, imp := range f.Imports {
		if !imp.Snippet {
			return false
		}
	}
	return true
}

// assertSameAsCoreDNS parses src with Parse and with CoreDNS's own parser and requires the same
// server blocks, addresses, directives and words (with their lines), or an error from both.
func assertSameAsCoreDNS(t *testing.T, src string) {
	t.Helper()
	require.True(t, comparable(src), "the comparison cannot run on %q", src)
	tokens, err := Lex(src)
	require.NoError(t, err)
	ours, ourErr := Parse(tokens)
	theirs, theirErr := caddyfile.Parse("Corefile", strings.NewReader(src), nil)
	require.Equal(t, theirErr == nil, ourErr == nil, "errors differ on %q: CoreDNS %v, ours %v", src, theirErr, ourErr)
	if ourErr == nil {
		assert.Equal(t, coreDNSGrouping(theirs), ourGrouping(ours), "grouping of %q", src)
	}
}

// The parser groups every shape of Corefile as CoreDNS does, quirks included.
func TestParseGroupsAsCoreDNS(t *testing.T) {
	for _, src := range []string{
		"",
		"# only a comment\n",
		".:53 {\n    errors\n    forward . 1.1.1.1 {\n        max_concurrent 1000\n    }\n    cache 30\n}\n",
		"example.org:53\nwhoami\nlog\n",                      // a single block without braces
		"a.org, b.org\nc.org {\n    whoami\n}\n",             // addresses continued after a comma
		"a.org b.org {\n whoami\n}\nc.org {\n log\n}\n",      // two blocks
		". {\n forward . 1.1.1.1\n forward . 8.8.8.8\n}\n",   // one directive twice: its words are concatenated
		". {\n hosts {\n  1.2.3.4 a\n  fallthrough\n }\n}\n", // nested braces
		". {\n kubernetes cluster.local { pods insecure }\n}\n",
		". {\n log\n} extra\n",                                       // a word after a block's brace
		"{\n whoami\n}\n",                                            // a block without addresses is dropped
		". {\n errors\n",                                             // an open block
		". {\n errors\n}\n}\n",                                       // a stray brace
		". {\n forward . 1.1.1.1 {\n  max_fails 1\n }\n",             // the server block's brace never closed, the last word a '}'
		". {\n a#comment b\n c \"#not a comment\"\n}\n",              // '#' inside a word ends it only to the next space
		". {\n ch\raos\n}\n",                                         // a carriage return is dropped
		". {\n template IN A \"multi\nline\" {\n  answer x\n }\n}\n", // a quoted newline moves the lines
		". {\n rewrite name \"a \\\"b\\\" c\" d\n}\n",                // escaped quotes
		". {\n chaos \"a\nb\" c\n d\n}\n",                            // a word after a quoted newline is on the quote's last line
		"\"\" {\n whoami\n}\n",                                       // an empty address
		". {\n \"\"\n}\n",                                            // an empty directive name
		"(snip) {\n cache 30\n log\n}\n. {\n import snip\n whoami\n}\n",
		"(snip) {\n pods insecure\n}\n. {\n kubernetes cluster.local {\n  import snip\n }\n}\n",
		"(snip) {\n whoami\n}\n. {\n errors import snip\n}\n",               // import not first on its line is a word
		"(snip) {\n whoami\n}\n. { import snip\n}\n",                        // import on the brace's line
		"(snip) {\n whoami\n}\n. {\n import snip\n import snip\n}\n",        // the same snippet twice
		"(a) {\n log\n}\n(b) {\n import a\n whoami\n}\n. {\n import b\n}\n", // a snippet importing a snippet
		"(a) {\n log\n}\n(a) {\n whoami\n}\n",                               // a snippet declared twice
		"(a) {\n import a\n}\n",                                             // a snippet importing itself
		"(k) {\n example.org\n}\nimport k\n{\n whoami\n}\n",                 // a snippet as addresses
		"(s) {\n}\n. {\n import s\n}\n",                                     // an empty snippet
		"(s) { log }\n. {\n import s\n}\n",                                  // a snippet on one line
		"(s) {\n log\n}\n. {\n import\n}\n",                                 // import without its argument
		"(s) {\n log\n}\n. {\n import s t\n}\n",                             // import with two arguments
		"(s) {\n log\n}\n. {\n forward . 1.1.1.1 {\n  import s\n }\n}\n",
		"(s) {\n tls /a\n}\n. {\n forward . 1.1.1.1 {\n  tls_servername x import s\n }\n}\n",
		"(s)\n",                   // a snippet name at the end of the file
		"(s) whoami\n. {\n}\n",    // a snippet name without braces
		"a,\n",                    // a comma at the end of the file
		"a, {\n}\n",               // a comma before the brace
		". {\n { \n }\n}\n",       // a brace where a directive is expected
		"\ufeff. {\n whoami\n}\n", // a byte order mark
		". {\n log\n}\n\n. {\n errors\n}\n",
	} {
		assertSameAsCoreDNS(t, src)
	}
}

// Inputs the comparison cannot run on are the ones Check refuses or Lex does not read.
func TestComparable(t *testing.T) {
	assert.False(t, comparable(". {\n import conf.d/*\n}\n"))
	assert.False(t, comparable(". {\n chaos {$HOME}\n}\n"))
	assert.False(t, comparable(". {\n chaos {\r$HOME}\n}\n"))
	assert.False(t, comparable(". {\n chaos \"open\n}\n"))
	assert.True(t, comparable("(s) {\n log\n}\n. {\n import s\n}\n"))
}

// Nested snippets cannot make the work exponential: past the bound, Parse stops with an error
// (here long before CoreDNS's own limit of 10,000 imports).
func TestParseBoundsSnippetExpansion(t *testing.T) {
	var b strings.Builder
	b.WriteString("(s0) {\n" + strings.Repeat(" log\n", 200) + "}\n")
	for i := 1; i <= 3; i++ {
		fmt.Fprintf(&b, "(s%d) {\n%s}\n", i, strings.Repeat(fmt.Sprintf(" import s%d\n", i-1), 10))
	}
	b.WriteString(". {\n import s3\n}\n") // 1,000 copies of s0: 200,000 words
	tokens, err := Lex(b.String())
	require.NoError(t, err)
	_, err = Parse(tokens)
	var se *SyntaxError
	require.ErrorAs(t, err, &se)
	assert.Contains(t, se.Msg, "more than 65536 words longer")
}
