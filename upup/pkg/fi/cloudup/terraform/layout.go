package terraform

import (
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/hashicorp/hcl/v2/hclwrite"
)

// fileBytes returns f as hclwrite.Format would lay it out (terraform fmt's layout). hclwrite
// measures every token in grapheme clusters with a fresh 4 KiB scanner, which was half the cost of
// `--target terraform` and 127 MB of garbage at 200 instance groups; layout does the same passes
// (indent, spaces, aligned "=") for the tokens this package emits, measuring ASCII by its bytes.
// Anything else (comments, heredocs, operators, non-ASCII names) takes hclwrite's own path, and
// tests check that both agree.
func fileBytes(f *hclwrite.File) []byte {
	tokens := f.BuildTokens(nil)
	if !layout(tokens) {
		return f.Bytes()
	}
	return tokens.Bytes()
}

// layoutLine is one line's tokens: lead up to "=", assign from "=" on (nil without one).
type layoutLine struct{ lead, assign hclwrite.Tokens }

// layout sets every token's SpacesBefore, or returns false (tokens then half done) when it meets
// a token it does not know.
func layout(tokens hclwrite.Tokens) bool {
	for _, t := range tokens {
		if !knownToken(t) {
			return false
		}
	}
	lines := splitLines(tokens)
	indent(lines)
	for _, l := range lines {
		spaceCell(l.lead)
		if len(l.assign) > 0 {
			l.assign[0].SpacesBefore = 1
			spaceCell(l.assign)
		}
	}
	return alignAssignments(lines)
}

// knownToken is the allow-list of token types layout handles: what blocks, attributes, strings,
// numbers, bools, references, tuples, objects and file() calls are made of.
func knownToken(t *hclwrite.Token) bool {
	switch t.Type {
	case hclsyntax.TokenIdent:
		return string(t.Bytes) != "in" // a keyword in for-expressions, spaced differently
	case hclsyntax.TokenOQuote, hclsyntax.TokenCQuote, hclsyntax.TokenQuotedLit,
		hclsyntax.TokenOBrace, hclsyntax.TokenCBrace, hclsyntax.TokenOBrack, hclsyntax.TokenCBrack,
		hclsyntax.TokenOParen, hclsyntax.TokenCParen, hclsyntax.TokenEqual, hclsyntax.TokenComma,
		hclsyntax.TokenDot, hclsyntax.TokenNumberLit, hclsyntax.TokenNewline, hclsyntax.TokenEOF,
		hclsyntax.TokenTemplateInterp, hclsyntax.TokenTemplateSeqEnd:
		return true
	}
	return false
}

// splitLines cuts tokens at newlines as hclwrite does: the newline ends its line, and a line's
// first "=" (not first on the line) starts its assign cell when the rest of the line closes every
// bracket it opens.
func splitLines(tokens hclwrite.Tokens) []layoutLine {
	var lines []layoutLine
	start := 0
	for i, t := range tokens {
		switch t.Type {
		case hclsyntax.TokenEOF:
			if start < i {
				lines = append(lines, newLayoutLine(tokens[start:i]))
			}
			return lines
		case hclsyntax.TokenNewline:
			lines = append(lines, newLayoutLine(tokens[start:i+1]))
			start = i + 1
		}
	}
	if start < len(tokens) {
		lines = append(lines, newLayoutLine(tokens[start:]))
	}
	return lines
}

func newLayoutLine(lead hclwrite.Tokens) layoutLine {
	for i := 1; i < len(lead); i++ {
		if lead[i].Type != hclsyntax.TokenEqual {
			continue
		}
		net := 0
		for _, t := range lead[i:] {
			net += bracketChange(t)
		}
		if net == 0 {
			return layoutLine{lead: lead[:i], assign: lead[i:]}
		}
		break
	}
	return layoutLine{lead: lead}
}

// indent gives each line two spaces per open bracket level, with hclwrite's indent stack.
func indent(lines []layoutLine) {
	var stack []int
	for _, l := range lines {
		if l.lead[0].Type == hclsyntax.TokenNewline {
			l.lead[0].SpacesBefore = 0
			continue
		}
		net := 0
		for _, t := range l.lead {
			net += bracketChange(t)
		}
		for _, t := range l.assign {
			net += bracketChange(t)
		}
		switch {
		case net > 0:
			l.lead[0].SpacesBefore = 2 * len(stack)
			stack = append(stack, net)
		case net < 0:
			for closed := -net; closed > 0 && len(stack) > 0; {
				top := &stack[len(stack)-1]
				switch {
				case closed > *top:
					closed -= *top
					stack = stack[:len(stack)-1]
				case closed < *top:
					*top -= closed
					closed = 0
				default:
					stack = stack[:len(stack)-1]
					closed = 0
				}
			}
			l.lead[0].SpacesBefore = 2 * len(stack)
		default:
			l.lead[0].SpacesBefore = 2 * len(stack)
		}
	}
}

// spaceCell spaces the tokens of one cell after its first.
func spaceCell(cell hclwrite.Tokens) {
	for i := 0; i+1 < len(cell); i++ {
		cell[i+1].SpacesBefore = 0
		if spaceBetween(cell[i], cell[i+1]) {
			cell[i+1].SpacesBefore = 1
		}
	}
}

// spaceBetween is hclwrite's rule for the token types knownToken allows.
func spaceBetween(subject, after *hclwrite.Token) bool {
	s, a := subject.Type, after.Type
	switch {
	case a == hclsyntax.TokenNewline:
		return false
	case s == hclsyntax.TokenIdent && a == hclsyntax.TokenOParen:
		return false
	case s == hclsyntax.TokenDot || a == hclsyntax.TokenDot:
		return false
	case a == hclsyntax.TokenComma:
		return false
	case s == hclsyntax.TokenComma:
		return true
	case s == hclsyntax.TokenQuotedLit || s == hclsyntax.TokenOQuote || a == hclsyntax.TokenQuotedLit || a == hclsyntax.TokenCQuote:
		return false
	case a == hclsyntax.TokenOBrack && (s == hclsyntax.TokenIdent || s == hclsyntax.TokenNumberLit || bracketChange(subject) < 0):
		return false
	case s == hclsyntax.TokenOBrace || a == hclsyntax.TokenCBrace:
		return !(s == hclsyntax.TokenOBrace && a == hclsyntax.TokenCBrace)
	case s == hclsyntax.TokenTemplateInterp && a == hclsyntax.TokenOBrace:
		return true
	case s == hclsyntax.TokenCBrace && a == hclsyntax.TokenTemplateSeqEnd:
		return true
	case s == hclsyntax.TokenTemplateSeqEnd && a == hclsyntax.TokenTemplateInterp:
		return false
	case bracketChange(subject) > 0:
		return false
	case bracketChange(after) < 0:
		return false
	}
	return true
}

// alignAssignments lines up the "=" of consecutive assignment lines. It returns false when a name
// is not ASCII: its width on screen is then not its length in bytes.
func alignAssignments(lines []layoutLine) bool {
	chainStart, widest := -1, 0
	widths := make([]int, len(lines))
	closeChain := func(end int) {
		for i := chainStart; i < end; i++ {
			lines[i].assign[0].SpacesBefore = widest - widths[i] + 1
		}
		chainStart, widest = -1, 0
	}
	for i, l := range lines {
		if l.assign == nil {
			if chainStart != -1 {
				closeChain(i)
			}
			continue
		}
		w, ok := asciiColumns(l.lead)
		if !ok {
			return false
		}
		widths[i] = w
		if chainStart == -1 {
			chainStart = i
		}
		widest = max(widest, w)
	}
	if chainStart != -1 {
		closeChain(len(lines))
	}
	return true
}

func asciiColumns(cell hclwrite.Tokens) (int, bool) {
	n := 0
	for _, t := range cell {
		for _, b := range t.Bytes {
			if b >= 0x80 {
				return 0, false
			}
		}
		n += t.SpacesBefore + len(t.Bytes)
	}
	return n, true
}

func bracketChange(t *hclwrite.Token) int {
	switch t.Type {
	case hclsyntax.TokenOBrace, hclsyntax.TokenOBrack, hclsyntax.TokenOParen, hclsyntax.TokenTemplateInterp:
		return 1
	case hclsyntax.TokenCBrace, hclsyntax.TokenCBrack, hclsyntax.TokenCParen, hclsyntax.TokenTemplateSeqEnd:
		return -1
	}
	return 0
}
