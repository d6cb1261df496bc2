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

package featureflag

import (
	"fmt"
	"strings"
)

// Severity says how a Message should be shown.
type Severity int

const (
	// Notice is informational: the value was understood as written.
	Notice Severity = iota
	// Warning means part of the value was ignored.
	Warning
)

// String returns "notice" or "warning".
func (s Severity) String() string {
	if s == Warning {
		return "warning"
	}
	return "notice"
}

// Prefix returns the one-letter prefix a CLI prints before the message.
func (s Severity) Prefix() string {
	if s == Warning {
		return "W"
	}
	return "I"
}

// Message is a notice or warning produced while parsing. Parse returns
// messages instead of logging them so the caller chooses where they go.
type Message struct {
	Severity Severity
	Text     string
}

// String formats the message for a terminal, e.g. "W: unknown feature flag ...".
func (m Message) String() string {
	return m.Severity.Prefix() + ": " + m.Text
}

// Parse reads a KOPS_FEATURE_FLAGS value: comma-separated items, each
// "+Flag" (on), "-Flag" (off) or "Flag" (on). Whitespace around items and
// names is ignored, as are empty items. Names match exactly; when a flag is
// mentioned more than once, under any of its names, the last mention wins.
//
// Parse never fails: unknown names are skipped with a Warning suggesting the
// nearest known flag, and aliases work but produce a Notice. Identical
// messages are reported once.
func Parse(value string) (Set, []Message) {
	explicit := map[Name]setting{}
	var msgs []Message
	seen := map[Message]bool{}
	report := func(sev Severity, format string, args ...any) {
		m := Message{Severity: sev, Text: fmt.Sprintf(format, args...)}
		if !seen[m] {
			seen[m] = true
			msgs = append(msgs, m)
		}
	}

	for _, item := range strings.Split(value, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		on := true
		switch item[0] {
		case '+':
			item = item[1:]
		case '-':
			on, item = false, item[1:]
		}
		name := Name(strings.TrimSpace(item))
		if name == "" {
			report(Warning, "missing feature flag name after %q in KOPS_FEATURE_FLAGS", signOf(on))
			continue
		}
		def, viaAlias, ok := lookup(name)
		if !ok {
			report(Warning, "%s", unknownText(name))
			continue
		}
		if viaAlias {
			report(Notice, "feature flag %q is an alias of %q", name, def.Name)
		}
		explicit[def.Name] = setting{value: on, via: name}
	}
	return Set{explicit: explicit}, msgs
}

func signOf(on bool) string {
	if on {
		return "+"
	}
	return "-"
}
