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
	"strings"
	"testing"

	"github.com/coredns/caddy/caddyfile"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"k8s.io/kops/util/pkg/allocbound"
)

// Small seeds, one feature each (docs/fuzzing.md: large seeds make minimizing slow).
var fuzzSeeds = []string{
	". {\n forward . 1.1.1.1 {\n  max_fails 2\n }\n}\n",
	"a.org, b.org\nwhoami\n",
	". {\n kubernetes c.l {\n  kubeconfig /k\n }\n}\n",
	"(s) {\n log\n}\n. {\n import s\n}\n",
	"(s) {\n tls /a\n}\n. {\n grpc . 1.1.1.1 {\n  import s\n }\n}\n",
	". {\n import f/*\n chaos {$H}\n}\n",
	". {\n a#b c \"d\\\"e\nf\"\r\n}\n",
	". {\n hosts /etc/hosts {\n  1.2.3.4 a\n }\n}\n",
	"\ufeff. { log }\n",
}

// FuzzLex: a Corefile comes from spec.kubeDNS.externalCoreFile. Lexing must not panic, must work in
// proportion to its input, put words on lines inside the file in order, and Format must write
// back words that Lex reads as the same words.
func FuzzLex(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		var tokens []Token
		var err error
		allocbound.Check(t, len(src), func() { tokens, err = Lex(src) })
		if err != nil {
			return
		}
		lines := strings.Count(src, "\n") + 1
		prevEnd := 1
		for _, tok := range tokens {
			require.GreaterOrEqual(t, tok.Line, prevEnd, "words in order: %q", tok.Text)
			prevEnd = tok.Line + tok.breaks()
			require.LessOrEqual(t, prevEnd, lines, "word %q inside the file", tok.Text)
			require.True(t, tok.Quoted || tok.Text != "", "only a quoted word may be empty")
		}
		again, err := Lex(Format(tokens))
		require.NoError(t, err, "formatted: %q", Format(tokens))
		require.Equal(t, tokens, again, "formatted: %q", Format(tokens))
	})
}

// FuzzCheck: checking must not panic and must work in proportion to its input, whatever the
// snippets do; problems name a line of the file and carry a reason; reformatting the words
// changes nothing; and where CoreDNS's own parser can be run, it groups the file exactly as Parse
// does, and a Corefile Check passes names no refused plugin or option in CoreDNS's grouping.
func FuzzCheck(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		var problems []Problem
		var err error
		allocbound.Check(t, len(src), func() { problems, err = Check(src) })
		lines := strings.Count(src, "\n") + 1
		for _, p := range problems {
			assert.True(t, p.Line >= 1 && p.Line <= lines, "%s: line inside the file", p)
			assert.NotEmpty(t, p.Reason)
		}
		tokens, lexErr := Lex(src)
		if lexErr != nil {
			return
		}
		again, againErr := Check(Format(tokens))
		assert.Equal(t, problems, again, "the problems of the formatted words")
		assert.Equal(t, err == nil, againErr == nil, "the error of the formatted words: %v, %v", err, againErr)
		if !comparable(src) {
			return
		}
		assertSameAsCoreDNS(t, src)
		if err == nil && len(problems) == 0 {
			blocks, caddyErr := caddyfile.Parse("Corefile", strings.NewReader(src), nil)
			require.NoError(t, caddyErr)
			assertNothingRefused(t, blocks)
		}
	})
}

// assertNothingRefused looks at CoreDNS's own grouping of an accepted Corefile: every directive is
// an allowed plugin, and no plugin's words hold an option refused whatever its arguments.
func assertNothingRefused(t *testing.T, blocks []caddyfile.ServerBlock) {
	for _, b := range blocks {
		for name, words := range b.Tokens {
			p, ok := pluginsByName[name]
			require.True(t, ok && p.refused == "", "accepted plugin %q", name)
			for _, o := range p.options {
				if o.withArgs {
					continue
				}
				for _, w := range words {
					assert.False(t, strings.EqualFold(w.Text, o.name), "accepted %s option %s", name, o.name)
				}
			}
		}
	}
}
