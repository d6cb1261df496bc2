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
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func w(text string, line int) Token { return Token{Text: text, Line: line} }
func q(text string, line int) Token { return Token{Text: text, Line: line, Quoted: true} }
func ws(tokens ...Token) []Token    { return tokens }
func texts(tokens []Token) []string { // for failure messages only
	var out []string
	for _, t := range tokens {
		out = append(out, t.Text)
	}
	return out
}

func TestLex(t *testing.T) {
	cases := []struct {
		name string
		src  string
		want []Token
	}{
		{"words and lines", ".:53 {\n    errors\n}\n", ws(w(".:53", 1), w("{", 1), w("errors", 2), w("}", 3))},
		{"tabs and Unicode spaces separate", "a\tb\u00a0c\u2003d", ws(w("a", 1), w("b", 1), w("c", 1), w("d", 1))},
		{"a comment runs to the end of the line", "a # b c\nd", ws(w("a", 1), w("d", 2))},
		{"a comment inside a word ends at the next space", "a#b c\nd", ws(w("a", 1), w("c", 1), w("d", 2))},
		{"a carriage return is dropped, even inside a word", "kube\rconfig\r\nx", ws(w("kubeconfig", 1), w("x", 2))},
		{"quotes hold spaces and newlines", "\"a b\nc\" d\ne", ws(q("a b\nc", 1), w("d", 2), w("e", 3))},
		{"only \\\" is an escape", `"a\"b\c\\d"`, ws(q(`a"b\c\\d`, 1))},
		{"a quote ends its word", `"a"b`, ws(q("a", 1), w("b", 1))},
		{"a quote inside a word is a character", `a"b" c`, ws(w(`a"b"`, 1), w("c", 1))},
		{"an empty quoted word", `"" x`, ws(q("", 1), w("x", 1))},
		{"'#' inside quotes is a character", `"a#b"`, ws(q("a#b", 1))},
		{"a leading byte order mark is dropped", "\ufeffa", ws(w("a", 1))},
		{"a second byte order mark is a character", "\ufeff\ufeffa", ws(w("\ufeffa", 1))},
		{"nothing", "", nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Lex(tc.src)
			require.NoError(t, err)
			assert.Equal(t, tc.want, got, "%q", texts(got))
		})
	}
}

func TestLexRefuses(t *testing.T) {
	for src, want := range map[string]string{
		"a \xff b":        "line 1: the Corefile is not UTF-8 text",
		"\ufffd\na\n\xff": "line 3: the Corefile is not UTF-8 text",
		"a \"open":        "line 1: the quoted word is not closed",
		"a\n\"open\\\"":   "line 2: the quoted word is not closed",
		"a\n\"open\nmore": "line 2: the quoted word is not closed",
	} {
		_, err := Lex(src)
		assert.ErrorContains(t, err, want, "%q", src)
	}
}

// Format writes tokens that Lex reads back as the same tokens, on the same lines.
func TestFormatRoundTrip(t *testing.T) {
	for _, src := range []string{
		".:53 {\n    errors\n\n\n    kubernetes cluster.local {\n        pods insecure\n    }\n}\n",
		"\"a b\nc\" d \"\" \"x\\\"y\" \"p\\q\" \"\\\\\\\"\"\ne",
		"a#b c\r\nd",
		"\ufeff\ufeffa b",
		"\n\n  x",
	} {
		tokens, err := Lex(src)
		require.NoError(t, err)
		again, err := Lex(Format(tokens))
		require.NoError(t, err)
		assert.Equal(t, tokens, again, "%q formatted as %q", src, Format(tokens))
	}
}
