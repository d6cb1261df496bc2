package corefile

import (
	"fmt"
	"strings"
)

// ReachMarkdown renders the reach table as the Markdown table docs/addon-operators.md shows, so
// the documentation cannot drift from what Check enforces.
func ReachMarkdown() string {
	var b strings.Builder
	row := func(subject, what, decision, why string) {
		fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", subject, what, decision, why)
	}
	row("plugin or word", "what", "decision", "why")
	row("---", "---", "---", "---")
	row("`import`", "a snippet defined above it", "allowed", "expands the Corefile's own words")
	row("`import`", "anything else: a file name or glob", "refused", fileImportReason)
	row("any word", "`{$NAME}`, `{%NAME%}`", "refused", strings.ReplaceAll(environReason, "{$NAME} and {%NAME%}", "them"))
	row("any other plugin", "", "refused", unknownReason)
	row("a plugin with a rule on its options or arguments", "another layout", "refused", layoutReason)
	for _, p := range plugins {
		name := "`" + p.name + "`"
		if p.refused != "" {
			row(name, "", "refused", p.refused)
			continue
		}
		what := ""
		if len(p.options) > 0 || p.args != nil {
			what = "everything not refused below"
		}
		if p.args != nil {
			what = p.args.allowedDoc
		}
		row(name, what, "allowed", p.allowed)
		if p.args != nil {
			row(name, p.args.refusedDoc, "refused", p.args.reason)
		}
		for _, o := range p.options {
			what := "option `" + o.name + "`"
			if o.withArgs {
				what += " with arguments"
			}
			row(name, what, "refused", o.reason)
		}
	}
	return b.String()
}
