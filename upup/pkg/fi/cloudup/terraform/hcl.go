package terraform

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// The HCL this package writes is made of a few token kinds only: identifiers, quoted strings (with
// one template, "${path.module}/..."), numbers, brackets, "=", "," and ".". It builds them here and
// lays them out in layout.go exactly as hclwrite (terraform fmt) does, which the tests check
// against hclwrite itself. Writing them ourselves keeps hclwrite, go-cty and go-cmp, whose package
// initialisation cost every kops command a millisecond or two, out of the binary.

// tokenKind is what the layout rules tell apart.
type tokenKind uint8

const (
	tokIdent tokenKind = iota
	tokOQuote
	tokQuotedLit
	tokCQuote
	tokNumber
	tokOBrace
	tokCBrace
	tokOBrack
	tokCBrack
	tokOParen
	tokCParen
	tokInterp // "${", which opens a template interpolation
	tokSeqEnd // the "}" that closes it
	tokEqual
	tokComma
	tokDot
	tokNewline
)

// token is one token and the spaces layout puts before it.
type token struct {
	kind   tokenKind
	text   string
	spaces int
}

// tokens are an expression, or a whole file. Tokens are values: appending an expression to a file
// copies it, so one expression written twice (a local and its output) is laid out in each place.
type tokens []token

func (ts tokens) String() string {
	var b strings.Builder
	for _, t := range ts {
		for range t.spaces {
			b.WriteByte(' ')
		}
		b.WriteString(t.text)
	}
	return b.String()
}

func punct(kind tokenKind, text string) token { return token{kind: kind, text: text} }

// identTokens is a bare name: an argument, a block type, a traversal's root.
func identTokens(name string) tokens { return tokens{{kind: tokIdent, text: name}} }

// stringTokens is s as a quoted string: normalised to NFC as go-cty does with every string value
// (so kops writes what it always wrote), then escaped as hclwrite escapes it.
func stringTokens(s string) tokens {
	out := tokens{punct(tokOQuote, `"`)}
	if lit := escapeString(norm.NFC.String(s)); lit != "" {
		out = append(out, token{kind: tokQuotedLit, text: lit})
	}
	return append(out, punct(tokCQuote, `"`))
}

// escapeString escapes a quoted string's content: quotes, backslashes and control characters, and
// the "${" and "%{" that would otherwise start a template sequence (written "$${" and "%%{").
// Anything unprintable is written as \uXXXX (or \UXXXXXXXX); invalid UTF-8 becomes U+FFFD.
func escapeString(s string) string {
	var b strings.Builder
	for i, r := range s {
		switch r {
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '$', '%':
			b.WriteRune(r)
			if strings.HasPrefix(s[i+1:], "{") {
				b.WriteRune(r)
			}
		default:
			switch {
			case unicode.IsPrint(r):
				b.WriteRune(r)
			case r < 0x10000:
				fmt.Fprintf(&b, `\u%04x`, r)
			default:
				fmt.Fprintf(&b, `\U%08x`, r)
			}
		}
	}
	return b.String()
}

// boolTokens is true or false.
func boolTokens(v bool) tokens { return identTokens(strconv.FormatBool(v)) }

func intTokens(v int64) tokens   { return tokens{{kind: tokNumber, text: strconv.FormatInt(v, 10)}} }
func uintTokens(v uint64) tokens { return tokens{{kind: tokNumber, text: strconv.FormatUint(v, 10)}} }

// floatTokens is v in decimal without an exponent, the shortest form that reads back as v.
func floatTokens(v float64) (tokens, error) {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil, fmt.Errorf("%v is not a number terraform reads", v)
	}
	return tokens{{kind: tokNumber, text: strconv.FormatFloat(v, 'f', -1, 64)}}, nil
}

// traversalTokens is root.attr.attr..., e.g. aws_iam_role.nodes-a-example-com.name.
func traversalTokens(root string, attrs ...string) tokens {
	out := identTokens(root)
	for _, a := range attrs {
		out = append(out, punct(tokDot, "."), token{kind: tokIdent, text: a})
	}
	return out
}

// tupleTokens is [a, b, ...] on one line.
func tupleTokens(elems []tokens) tokens {
	out := tokens{punct(tokOBrack, "[")}
	for i, e := range elems {
		if i > 0 {
			out = append(out, punct(tokComma, ","))
		}
		out = append(out, e...)
	}
	return append(out, punct(tokCBrack, "]"))
}

// callTokens is name(args...).
func callTokens(name string, args ...tokens) tokens {
	out := append(identTokens(name), punct(tokOParen, "("))
	for i, a := range args {
		if i > 0 {
			out = append(out, punct(tokComma, ","))
		}
		out = append(out, a...)
	}
	return append(out, punct(tokCParen, ")"))
}

// objectTokens is an object with one "key = value" line per entry, in the order given; a key
// that is no bare key is written quoted.
func objectTokens(keys []string, values []tokens) tokens {
	out := tokens{punct(tokOBrace, "{")}
	if len(keys) > 0 {
		out = append(out, punct(tokNewline, "\n"))
	}
	for i, k := range keys {
		if bareKey(k) {
			out = append(out, identTokens(k)...)
		} else {
			out = append(out, stringTokens(k)...)
		}
		out = append(out, punct(tokEqual, "="))
		out = append(out, values[i]...)
		out = append(out, punct(tokNewline, "\n"))
	}
	return append(out, punct(tokCBrace, "}"))
}

// bareKey reports whether an object key can be written unquoted: a name, but not "for", with
// which HCL's parser reads an object that starts with it as a for-expression ("Invalid 'for'
// expression"; tag keys are the users'). Other keywords are fine bare: HCL reads true, false and
// null as the key's name, and "in" and "if" are keywords only inside a for-expression.
func bareKey(k string) bool { return validName(k) && k != "for" }

// hclFile is kubernetes.tf being written: blocks, attributes and blank lines, in order, as
// hclwrite's Body appends them.
type hclFile struct{ toks tokens }

// hclBody is where the next attribute or block of one body goes.
type hclBody struct{ f *hclFile }

func (f *hclFile) body() hclBody { return hclBody{f: f} }

// newline appends an empty line.
func (b hclBody) newline() { b.f.toks = append(b.f.toks, punct(tokNewline, "\n")) }

// attribute appends "name = expr".
func (b hclBody) attribute(name string, expr tokens) {
	b.f.toks = append(b.f.toks, token{kind: tokIdent, text: name}, punct(tokEqual, "="))
	b.f.toks = append(b.f.toks, expr...)
	b.f.toks = append(b.f.toks, punct(tokNewline, "\n"))
}

// block appends `kind "label" ... {`, lets fill write its body, and closes it.
func (b hclBody) block(kind string, labels []string, fill func(hclBody)) {
	b.f.toks = append(b.f.toks, token{kind: tokIdent, text: kind})
	for _, l := range labels {
		b.f.toks = append(b.f.toks, stringTokens(l)...)
	}
	b.f.toks = append(b.f.toks, punct(tokOBrace, "{"), punct(tokNewline, "\n"))
	if fill != nil {
		fill(b)
	}
	b.f.toks = append(b.f.toks, punct(tokCBrace, "}"), punct(tokNewline, "\n"))
}

// bytes lays the file out and returns it.
func (f *hclFile) bytes() []byte {
	layout(f.toks)
	return []byte(f.toks.String())
}
