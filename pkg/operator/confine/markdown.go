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

package confine

import "strings"

// RightsMarkdown renders d.Rights as the Markdown table in docs/operator-rights.md.
func (d *Descriptor) RightsMarkdown() string {
	var b strings.Builder
	b.WriteString("| Namespace | API group | Resources | Verbs | Names | Why |\n")
	b.WriteString("|---|---|---|---|---|---|\n")
	for _, r := range d.Rights {
		group := r.APIGroup
		if group == "" {
			group = "core"
		}
		names := "(any)"
		if len(r.ResourceNames) > 0 {
			names = code(r.ResourceNames)
		}
		cells := []string{code([]string{r.Namespace}), group, code(r.Resources), code(r.Verbs), names,
			strings.ReplaceAll(r.Why, "|", `\|`)}
		b.WriteString("| " + strings.Join(cells, " | ") + " |\n")
	}
	return b.String()
}

func code(values []string) string {
	return "`" + strings.Join(values, "`, `") + "`"
}

// PolicyMarkdown renders the admission policy generated for s as a Markdown list, one rule per item.
func PolicyMarkdown(s *Scope) string {
	var b strings.Builder
	scope, exact := s.checks()
	checks := append(scope.checks, exact.checks...)
	for _, v := range append(scope.vars, exact.vars...) {
		b.WriteString("- variable `" + v.name + "`:\n\n")
		b.WriteString("  ```cel\n  " + v.expression + "\n  ```\n\n")
	}
	for _, c := range checks {
		group := c.group
		if group == "" {
			group = "core"
		}
		where := "`" + c.resource + "` (" + group + ")"
		if c.namespace != "" {
			where += " in `" + c.namespace + "`"
		}
		b.WriteString("- " + where + ": " + c.message + ".\n\n")
		b.WriteString("  ```cel\n  " + c.expression + "\n  ```\n\n")
	}
	return strings.TrimSuffix(b.String(), "\n")
}
