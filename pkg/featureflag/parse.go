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

type Severity int

const (
	Notice Severity = iota
	Warning
)

func (s Severity) String() string {
	if s == Warning {
		return "warning"
	}
	return "notice"
}

func (s Severity) Prefix() string {
	if s == Warning {
		return "W"
	}
	return "I"
}

type Message struct {
	Severity Severity
	Text     string
}

func (m Message) String() string {
	return m.Severity.Prefix() + ": " + m.Text
}

// Parse reads a KOPS_FEATURE_FLAGS value of comma-separated "+Flag", "-Flag" or "Flag" items; the
// last mention wins. It never fails: unknown names are skipped with a Warning suggesting the nearest
// flag, and aliases produce a Notice.
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
