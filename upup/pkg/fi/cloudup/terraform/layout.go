package terraform

import (
	"github.com/apparentlymart/go-textseg/v15/textseg"
)

// layout sets every token's spaces as hclwrite.Format (terraform fmt) lays a file out: two spaces
// of indent per open bracket, one space between tokens where its rules want one, and the "=" of
// consecutive attribute lines aligned. It does hclwrite's passes for the token kinds this package
// writes, measuring ASCII by its bytes (hclwrite measures every token in grapheme clusters with a
// fresh scanner, which was half the cost of `--target terraform` at 200 instance groups).
func layout(toks tokens) {
	lines := splitLines(toks)
	indent(toks, lines)
	for _, l := range lines {
		spaceCell(toks[l.start:l.eq])
		if l.eq < l.end {
			toks[l.eq].spaces = 1
			spaceCell(toks[l.eq:l.end])
		}
	}
	alignAssignments(toks, lines)
}

// layoutLine is one line, newline included: tokens [start, eq) are its lead, [eq, end) from its
// "=" on (eq == end without one).
type layoutLine struct{ start, eq, end int }

// splitLines cuts tokens at newlines as hclwrite does: the newline ends its line, and a line's
// first "=" (not first on the line) starts its assign cell when the rest of the line closes every
// bracket it opens.
func splitLines(toks tokens) []layoutLine {
	var lines []layoutLine
	start := 0
	for i, t := range toks {
		if t.kind == tokNewline {
			lines = append(lines, newLayoutLine(toks, start, i+1))
			start = i + 1
		}
	}
	if start < len(toks) {
		lines = append(lines, newLayoutLine(toks, start, len(toks)))
	}
	return lines
}

func newLayoutLine(toks tokens, start, end int) layoutLine {
	for i := start + 1; i < end; i++ {
		if toks[i].kind != tokEqual {
			continue
		}
		net := 0
		for _, t := range toks[i:end] {
			net += bracketChange(t)
		}
		if net == 0 {
			return layoutLine{start: start, eq: i, end: end}
		}
		break
	}
	return layoutLine{start: start, eq: end, end: end}
}

// indent gives each line two spaces per open bracket level, with hclwrite's indent stack.
func indent(toks tokens, lines []layoutLine) {
	var stack []int
	for _, l := range lines {
		first := &toks[l.start]
		if first.kind == tokNewline {
			first.spaces = 0
			continue
		}
		net := 0
		for _, t := range toks[l.start:l.end] {
			net += bracketChange(t)
		}
		switch {
		case net > 0:
			first.spaces = 2 * len(stack)
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
			first.spaces = 2 * len(stack)
		default:
			first.spaces = 2 * len(stack)
		}
	}
}

// spaceCell spaces the tokens of one cell after its first.
func spaceCell(cell tokens) {
	for i := 0; i+1 < len(cell); i++ {
		cell[i+1].spaces = 0
		if spaceBetween(&cell[i], &cell[i+1]) {
			cell[i+1].spaces = 1
		}
	}
}

// spaceBetween is hclwrite's rule, for the token sequences this package writes (no for-expressions,
// index brackets or nested braces in templates, whose rules it therefore leaves out), between
// subject and the token after it.
func spaceBetween(subject, after *token) bool {
	s, a := subject.kind, after.kind
	switch {
	case a == tokNewline:
		return false
	case s == tokIdent && a == tokOParen:
		return false
	case s == tokDot || a == tokDot:
		return false
	case a == tokComma:
		return false
	case s == tokComma:
		return true
	case s == tokQuotedLit || s == tokOQuote || a == tokQuotedLit || a == tokCQuote:
		return false
	case s == tokOBrace || a == tokCBrace:
		return !(s == tokOBrace && a == tokCBrace)
	case bracketChange(*subject) > 0:
		return false
	case bracketChange(*after) < 0:
		return false
	}
	return true
}

// alignAssignments lines up the "=" of consecutive assignment lines.
func alignAssignments(toks tokens, lines []layoutLine) {
	chainStart, widest := -1, 0
	widths := make([]int, len(lines))
	closeChain := func(end int) {
		for i := chainStart; i < end; i++ {
			toks[lines[i].eq].spaces = widest - widths[i] + 1
		}
		chainStart, widest = -1, 0
	}
	for i, l := range lines {
		if l.eq == l.end {
			if chainStart != -1 {
				closeChain(i)
			}
			continue
		}
		widths[i] = columns(toks[l.start:l.eq])
		if chainStart == -1 {
			chainStart = i
		}
		widest = max(widest, widths[i])
	}
	if chainStart != -1 {
		closeChain(len(lines))
	}
}

// columns is a cell's width as hclwrite counts it: spaces, and each token's grapheme clusters
// (a quoted map key may be any text; ASCII is one cluster per byte, but for CR LF, which a
// string's escaping never leaves).
func columns(cell tokens) int {
	n := 0
	for _, t := range cell {
		n += t.spaces + width(t.text)
	}
	return n
}

func width(s string) int {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			n, _ := textseg.TokenCount([]byte(s), textseg.ScanGraphemeClusters)
			return n
		}
	}
	return len(s)
}

func bracketChange(t token) int {
	switch t.kind {
	case tokOBrace, tokOBrack, tokOParen, tokInterp:
		return 1
	case tokCBrace, tokCBrack, tokCParen, tokSeqEnd:
		return -1
	}
	return 0
}
