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

package apply

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// writeReport prints one row per addon under a header, as kops's channels does: what happened to it
// and, in plain words, why. A dry run that would change something ends with the reminder.
func writeReport(out io.Writer, results []Result) error {
	changes := false
	var buf strings.Builder
	w := tabwriter.NewWriter(&buf, 0, 4, 2, ' ', 0)
	// Writes into buf cannot fail; the whole report is written to out at the end, checked.
	_, _ = fmt.Fprintln(w, "ADDON\tOUTCOME\tREASON")
	for _, r := range results {
		name := r.Name
		if r.ID != "" {
			name += " (" + r.ID + ")"
		}
		reason := r.Reason
		if reason == "" {
			reason = "-"
		}
		_, _ = fmt.Fprintf(w, "%s\t%s\t%s\n", name, r.Outcome, reason)
		changes = changes || r.Outcome == WouldApply || r.Outcome == WouldPrune
	}
	_ = w.Flush()
	if changes {
		buf.WriteString("\nMust specify --yes to apply changes\n")
	}
	_, err := io.WriteString(out, buf.String())
	return err
}
