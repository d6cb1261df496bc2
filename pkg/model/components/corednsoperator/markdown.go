package corednsoperator

import "strings"

// RightsMarkdown renders Rights as the Markdown table in docs/addon-operators.md; a test of the
// doc compares it with this output, so the documented rights are the deployed ones.
func RightsMarkdown() string {
	var b strings.Builder
	b.WriteString("| Namespace | API group | Resources | Verbs | Names | Why |\n")
	b.WriteString("|---|---|---|---|---|---|\n")
	for _, r := range Rights {
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

// code renders values as comma-separated inline code.
func code(values []string) string {
	return "`" + strings.Join(values, "`, `") + "`"
}
