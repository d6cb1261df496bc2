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

// ReachMarkdown renders the reach table for docs/coredns-object.md, so the docs cannot drift from Check.
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
