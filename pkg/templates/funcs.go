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

package templates

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"text/template"

	"sigs.k8s.io/yaml"
)

// funcs emit YAML that decodes to exactly its input, so "yes", "0x1f" or "a: b" cannot change type.
func funcs() template.FuncMap {
	return template.FuncMap{
		"quote":   quote,
		"toYAML":  toYAML,
		"indent":  indent,
		"literal": literal,
	}
}

func quote(s string) (string, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		return "", err
	}
	return strings.TrimSuffix(b.String(), "\n"), nil
}

// toYAML marshals v through its JSON tags, with sorted keys and no trailing newline.
func toYAML(v any) (string, error) {
	b, err := yaml.Marshal(v)
	if err != nil {
		return "", fmt.Errorf("marshaling %T to YAML: %w", v, err)
	}
	return strings.TrimSuffix(string(b), "\n"), nil
}

func indent(n int, s string) string {
	pad := strings.Repeat(" ", n)
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if l != "" {
			lines[i] = pad + l
		}
	}
	return strings.Join(lines, "\n")
}

// literal returns s as a literal block scalar indented by n, or double-quoted when the block would
// not decode back to s exactly.
func literal(n int, s string) (string, error) {
	if n < 1 || !strings.Contains(s, "\n") {
		return quote(s)
	}
	header, body := "|", s
	switch {
	case !strings.HasSuffix(s, "\n"):
		header += "-"
	case strings.HasSuffix(s, "\n\n"):
		header += "+"
		body = strings.TrimSuffix(s, "\n")
	default:
		body = strings.TrimSuffix(s, "\n")
	}
	block := header + "\n" + indent(n, body)
	if ok, err := decodesTo(block, s); err != nil || !ok {
		return quote(s)
	}
	return block, nil
}

func decodesTo(value, want string) (bool, error) {
	var got map[string]string
	if err := yaml.UnmarshalStrict([]byte("k: "+value+"\n"), &got); err != nil {
		return false, err
	}
	return got["k"] == want, nil
}
