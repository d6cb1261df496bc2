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
	"unicode"
	"unicode/utf8"
)

// Token is one word of a Corefile as CoreDNS reads it.
type Token struct {
	// Text is the word with its quotes and \" escapes removed.
	Text string
	// Line is the line the word starts on, from 1.
	Line int
	// Quoted says the word was in double quotes; Text may then hold spaces and newlines.
	Quoted bool
}

// breaks is how many lines a quoted word spans beyond its first, which CoreDNS counts when it
// decides whether the next word is on the same line.
func (t *Token) breaks() int {
	if !t.Quoted {
		return 0
	}
	return strings.Count(t.Text, "\n")
}

const byteOrderMark = '\uFEFF'

// Lex splits src into words with CoreDNS's rules, which differ from a shell's:
//   - words are separated by Unicode white space; a carriage return outside quotes is dropped
//     without ending the word ("kube\rconfig" is the word kubeconfig);
//   - a word that starts with a double quote runs to the next unescaped double quote, newlines
//     included; inside it only \" is an escape (other backslashes stay);
//   - '#' outside quotes starts a comment that runs to the end of the line, but when it interrupts
//     a word, only to the next white space: "a#b c" is the two words a and c.
//
// Lex refuses what CoreDNS would read in a way nobody means: text that is not UTF-8 and a quote
// left open at the end.
func Lex(src string) ([]Token, error) {
	if !utf8.ValidString(src) {
		return nil, &SyntaxError{Line: invalidUTF8Line(src), Msg: "the Corefile is not UTF-8 text"}
	}
	src = strings.TrimPrefix(src, string(byteOrderMark))
	var (
		tokens []Token
		word   strings.Builder
		cur    Token // valid while inWord
		inWord bool
		quoted bool
		escape bool // the previous character in a quoted word was a backslash
		skip   bool // in a comment, until white space or a newline
		line   = 1
	)
	emit := func() {
		cur.Text = word.String()
		tokens = append(tokens, cur)
		word.Reset()
		inWord = false
	}
	for _, r := range src {
		if quoted {
			switch {
			case escape && r != '"':
				word.WriteByte('\\')
				word.WriteRune(r)
			case escape:
				word.WriteRune(r)
			case r == '\\':
				escape = true
				continue
			case r == '"':
				quoted = false
				emit()
				continue
			default:
				word.WriteRune(r)
			}
			escape = false
			if r == '\n' {
				line++
			}
			continue
		}
		if unicode.IsSpace(r) {
			if r == '\r' {
				continue
			}
			if r == '\n' {
				line++
				skip = false
			}
			if inWord {
				// CoreDNS's comment ends with the word: after "a#b" come words again.
				emit()
				skip = false
			}
			continue
		}
		if r == '#' {
			skip = true
		}
		if skip {
			continue
		}
		if !inWord {
			inWord, cur = true, Token{Line: line}
			if r == '"' {
				quoted, cur.Quoted = true, true
				continue
			}
		}
		word.WriteRune(r)
	}
	if quoted {
		return tokens, &SyntaxError{Line: cur.Line, Msg: "the quoted word is not closed"}
	}
	if inWord {
		emit()
	}
	return tokens, nil
}

// invalidUTF8Line is the line of src's first byte that is not UTF-8.
func invalidUTF8Line(src string) int {
	line := 1
	for i, r := range src {
		if r == utf8.RuneError && !strings.HasPrefix(src[i:], string(utf8.RuneError)) {
			break
		}
		if r == '\n' {
			line++
		}
	}
	return line
}

// Format writes tokens back as a Corefile that Lex reads as the same tokens, each on its line;
// comments and spacing are lost.
func Format(tokens []Token) string {
	var b strings.Builder
	line := 1
	for i, t := range tokens {
		switch {
		case t.Line > line:
			b.WriteString(strings.Repeat("\n", t.Line-line))
			line = t.Line
		case i > 0:
			b.WriteByte(' ')
		case strings.HasPrefix(t.Text, string(byteOrderMark)) && !t.Quoted:
			// A mark at the very start would be dropped as a byte order mark.
			b.WriteByte(' ')
		}
		if !t.Quoted {
			b.WriteString(t.Text)
			continue
		}
		// Only \" is an escape; other backslashes read back as they are (see Lex).
		b.WriteByte('"')
		b.WriteString(strings.ReplaceAll(t.Text, `"`, `\"`))
		b.WriteByte('"')
		line += t.breaks()
	}
	if len(tokens) > 0 {
		b.WriteByte('\n')
	}
	return b.String()
}
