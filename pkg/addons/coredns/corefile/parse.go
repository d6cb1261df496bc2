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
	"fmt"
	"strings"
)

// File is a Corefile grouped as CoreDNS groups it: server blocks of directives, with snippets
// expanded where CoreDNS expands them.
type File struct {
	// Blocks are the server blocks in order, including those without addresses (which CoreDNS
	// drops), so that a check sees everything the file says.
	Blocks []ServerBlock
	// Imports are the import directives met, once per expansion.
	Imports []Import
}

type ServerBlock struct {
	// Keys are the addresses, a trailing comma removed.
	Keys       []Token
	Directives []Directive
}

// Directive is one use of a plugin and every word CoreDNS hands it, braces included; words from a
// snippet need not be consecutive in the file.
type Directive struct {
	Name  *Token
	Words []*Token
}

// Import is an import directive; Snippet says its argument named a snippet defined before it
// (otherwise CoreDNS reads a file name or glob).
type Import struct {
	Keyword, Arg *Token
	Snippet      bool
}

// SyntaxError is a Corefile CoreDNS would refuse to load, or one this package refuses to read.
type SyntaxError struct {
	Line int
	Msg  string
}

func (e *SyntaxError) Error() string { return fmt.Sprintf("line %d: %s", e.Line, e.Msg) }

const (
	// maxSnippetImports is CoreDNS's own limit on snippet expansions.
	maxSnippetImports = 10000
	// maxExpandedWords bounds the words snippets may add, so nested imports cannot make the work
	// exponential in the input.
	maxExpandedWords = 1 << 16
)

// Parse groups tokens (from Lex) as CoreDNS's parser does, quirks included: a directive runs to the
// end of its line or of its braces, and a snippet's words keep the lines of its definition. Any
// directive name is accepted (Check judges them). At the first syntax error it returns what it
// grouped so far.
func Parse(tokens []Token) (*File, error) {
	p := &parser{file: &File{}, snippets: map[string][]*Token{}}
	base := make([]*Token, len(tokens))
	for i := range tokens {
		base[i] = &tokens[i]
	}
	p.s = stream{frames: []frame{{words: base}}, limit: len(tokens) + maxExpandedWords}
	var err error
	for err == nil && p.s.next() {
		err = p.begin()
	}
	if p.s.err != nil {
		return p.file, p.s.err
	}
	return p.file, err
}

type parser struct {
	s        stream
	file     *File
	block    *ServerBlock // appended to file.Blocks once complete
	snippets map[string][]*Token
	imports  int
	eof      bool // the file ended inside a block's addresses
}

func (p *parser) errorf(t *Token, format string, args ...any) error {
	line := 0
	if t != nil {
		line = t.Line
	}
	return &SyntaxError{Line: line, Msg: fmt.Sprintf(format, args...)}
}

// begin reads one server block or snippet definition.
func (p *parser) begin() error {
	p.block = &ServerBlock{}
	if err := p.addresses(); err != nil {
		return err
	}
	if p.eof {
		p.keep()
		return nil
	}
	if name, ok := snippetName(p.block.Keys); ok {
		return p.defineSnippet(name)
	}
	err := p.blockContents()
	p.keep()
	return err
}

func (p *parser) keep() { p.file.Blocks = append(p.file.Blocks, *p.block) }

func snippetName(keys []Token) (string, bool) {
	if len(keys) != 1 || !strings.HasPrefix(keys[0].Text, "(") || !strings.HasSuffix(keys[0].Text, ")") {
		return "", false
	}
	return strings.TrimSuffix(keys[0].Text[1:], ")"), true
}

// addresses reads up to "{" or the end of the line; a trailing comma continues on the next line.
func (p *parser) addresses() error {
	expectingAnother := false
	for {
		t := p.s.cur
		if t.Text == "import" && p.s.newLine() {
			if err := p.doImport(); err != nil {
				return err
			}
			if !p.s.next() {
				if expectingAnother {
					return p.errorf(t, "unexpected end of file after a comma")
				}
				p.eof = true
				return nil
			}
			continue
		}
		if t.Text == "{" {
			if expectingAnother {
				return p.errorf(t, "expected another address but had '{': check for an extra comma")
			}
			return nil
		}
		if t.Text != "" {
			key := *t
			key.Text, expectingAnother = strings.CutSuffix(t.Text, ",")
			p.block.Keys = append(p.block.Keys, key)
		}
		hasNext := p.s.next()
		if !hasNext {
			if expectingAnother {
				return p.errorf(t, "unexpected end of file after a comma")
			}
			p.eof = true
			return nil
		}
		if !expectingAnother && p.s.newLine() {
			return nil
		}
	}
}

// defineSnippet stores the braced words that follow "(name)", unexpanded: CoreDNS expands a
// snippet's own imports each time it is imported.
func (p *parser) defineSnippet(name string) error {
	if _, dup := p.snippets[name]; dup {
		return p.errorf(p.s.cur, "snippet %q is declared twice", name)
	}
	if p.s.cur.Text != "{" {
		return p.errorf(p.s.cur, "expected '{' after the snippet name, found %q", p.s.cur.Text)
	}
	open := p.s.cur
	depth := 1
	var words []*Token
	for p.s.next() {
		t := p.s.cur
		if t.Text == "}" {
			if depth--; depth == 0 {
				break
			}
		}
		if t.Text == "{" {
			depth++
		}
		words = append(words, t)
	}
	if depth != 0 {
		return p.errorf(open, "the snippet's '{' is not closed")
	}
	for i := 0; i+1 < len(words); i++ {
		lineStart := i == 0 || words[i-1].Line != words[i].Line
		if words[i].Text == "import" && lineStart && words[i+1].Text == name {
			return p.errorf(words[i], "snippet %q imports itself", name)
		}
	}
	p.snippets[name] = words
	return nil
}

// blockContents reads a server block's directives, braced or (a single block) not.
func (p *parser) blockContents() error {
	open := p.s.cur
	braced := open.Text == "{"
	if !braced {
		p.s.unread()
	}
	if err := p.directives(); err != nil {
		return err
	}
	if braced && p.s.cur.Text != "}" {
		return p.errorf(p.s.cur, "the server block's '{' on line %d is not closed", open.Line)
	}
	return nil
}

func (p *parser) directives() error {
	for p.s.next() {
		switch p.s.cur.Text {
		case "}":
			return nil
		case "import":
			if err := p.doImport(); err != nil {
				return err
			}
		default:
			if err := p.directive(); err != nil {
				return err
			}
		}
	}
	return nil
}

func (p *parser) directive() error {
	d := Directive{Name: p.s.cur}
	nesting := 0
	var err error
loop:
	for p.s.next() {
		t := p.s.cur
		switch {
		case t.Text == "{":
			nesting++
		case nesting == 0 && p.s.newLine():
			p.s.unread()
			break loop
		case t.Text == "}" && nesting > 0:
			nesting--
		case t.Text == "}":
			err = p.errorf(t, "unexpected '}': no '{' is open")
			break loop
		case t.Text == "import" && p.s.newLine():
			if err = p.doImport(); err != nil {
				break loop
			}
			continue
		}
		d.Words = append(d.Words, t)
	}
	if err == nil && nesting > 0 {
		err = p.errorf(d.Name, "directive %q: a '{' is not closed", d.Name.Text)
	}
	if err == nil {
		p.block.Directives = append(p.block.Directives, d)
	}
	return err
}

// doImport splices in the words of snippet NAME, as CoreDNS does. Any other argument is a file
// name or glob to CoreDNS: it is recorded and expands to nothing here.
func (p *parser) doImport() error {
	keyword, before := p.s.cur, p.s.prev
	if !p.s.nextArg() {
		return p.errorf(keyword, "import needs one argument on its line")
	}
	arg := p.s.cur
	if arg.Text == "" {
		return p.errorf(arg, "import needs a non-empty argument")
	}
	if p.s.nextArg() {
		return p.errorf(p.s.cur, "import takes only one argument")
	}
	words, snippet := p.snippets[arg.Text]
	p.file.Imports = append(p.file.Imports, Import{Keyword: keyword, Arg: arg, Snippet: snippet})
	if snippet {
		if p.imports++; p.imports > maxSnippetImports {
			return p.errorf(keyword, "more than %d snippet imports", maxSnippetImports)
		}
		p.s.push(words)
	}
	p.s.rewind(before)
	return nil
}

// stream yields the file's words with snippets spliced in, without copying: a stack of frames.
type stream struct {
	frames    []frame
	cur, prev *Token
	back      bool // unread: the next call to next yields cur again
	yielded   int
	limit     int
	err       error
}

type frame struct {
	words []*Token
	pos   int
}

// peek returns the word next would yield, dropping exhausted snippet frames.
func (s *stream) peek() *Token {
	for {
		f := &s.frames[len(s.frames)-1]
		if f.pos < len(f.words) {
			return f.words[f.pos]
		}
		if len(s.frames) == 1 {
			return nil
		}
		s.frames = s.frames[:len(s.frames)-1]
	}
}

// next moves to the next word. At the end it returns false and stays on the last word.
func (s *stream) next() bool {
	if s.back {
		s.back = false
		return true
	}
	if s.err != nil {
		return false
	}
	t := s.peek()
	if t == nil {
		return false
	}
	if s.yielded++; s.yielded > s.limit {
		s.err = &SyntaxError{Line: t.Line, Msg: fmt.Sprintf("snippet imports make the Corefile more than %d words longer", maxExpandedWords)}
		return false
	}
	s.frames[len(s.frames)-1].pos++
	s.prev, s.cur = s.cur, t
	return true
}

func (s *stream) unread() { s.back = true }

// newLine says whether the current word starts a line, comparing with where the previous word
// ends as CoreDNS does (so a snippet's words may not start one).
func (s *stream) newLine() bool {
	return s.prev == nil || s.prev.Line+s.prev.breaks() < s.cur.Line
}

// nextArg moves to the next word only if it is on the current word's line.
func (s *stream) nextArg() bool {
	if s.back || s.cur == nil {
		return false
	}
	t := s.peek()
	if t == nil || s.cur.Line+s.cur.breaks() != t.Line {
		return false
	}
	return s.next()
}

func (s *stream) push(words []*Token) { s.frames = append(s.frames, frame{words: words}) }

// rewind makes t the current word, as CoreDNS's parser steps back to the word before an import
// it has replaced.
func (s *stream) rewind(t *Token) { s.cur, s.prev = t, nil }
