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

package terraform

import (
	"strings"
)

// topLevelBlocks cuts a terraform file into top-level blocks for the per-block diff, reading just
// enough HCL (comments, strings, templates) to find block ends. It returns false for anything it
// cannot cut with certainty; the caller then diffs the whole file.
func topLevelBlocks(src []byte) (map[string]string, bool) {
	s := string(src)
	blocks := map[string]string{}
	for i := skipSpace(s, 0, true); i < len(s); i = skipSpace(s, i, true) {
		name, open, ok := blockHeader(s, i)
		if !ok {
			return nil, false
		}
		end, ok := skipBody(s, open+1)
		if !ok {
			return nil, false
		}
		if next := skipSpace(s, end, false); next < len(s) && s[next] != '\n' {
			return nil, false // a block ends its line
		}
		if _, dup := blocks[name]; dup {
			return nil, false
		}
		blocks[name] = strings.TrimSpace(s[i:end]) + "\n"
		i = end
	}
	return blocks, true
}

func skipSpace(s string, i int, lines bool) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r' || lines && s[i] == '\n') {
		i++
	}
	return i
}

func blockHeader(s string, i int) (name string, open int, ok bool) {
	kind, i := identAt(s, i)
	if kind == "" {
		return "", 0, false
	}
	var labels []string
	for {
		i = skipSpace(s, i, false)
		switch {
		case i >= len(s):
			return "", 0, false
		case s[i] == '{':
			return strings.TrimSpace(kind + " " + strings.Join(labels, ".")), i, true
		case s[i] == '"':
			end := strings.IndexByte(s[i+1:], '"')
			if end < 0 {
				return "", 0, false
			}
			label := s[i+1 : i+1+end]
			if !validName(label) {
				return "", 0, false // kops writes names only (labelsValid)
			}
			labels = append(labels, label)
			i += end + 2
		default:
			label, next := identAt(s, i)
			if label == "" {
				return "", 0, false
			}
			labels = append(labels, label)
			i = next
		}
	}
}

func identAt(s string, i int) (string, int) {
	j := nameEnd(s, i)
	return s[i:j], j
}

func skipBody(s string, i int) (int, bool) {
	depth := 1
	for i < len(s) {
		switch {
		case s[i] == '"':
			end, ok := skipString(s, i+1)
			if !ok {
				return 0, false
			}
			i = end
			continue
		case s[i] == '#' || strings.HasPrefix(s[i:], "//"):
			end := strings.IndexByte(s[i:], '\n')
			if end < 0 {
				return 0, false
			}
			i += end
			continue
		case strings.HasPrefix(s[i:], "/*"):
			end := strings.Index(s[i+2:], "*/")
			if end < 0 {
				return 0, false
			}
			i += end + 4
			continue
		case strings.HasPrefix(s[i:], "<<"):
			return 0, false // a heredoc: its lines are not HCL
		case s[i] == '{':
			depth++
		case s[i] == '}':
			depth--
			if depth == 0 {
				return i + 1, true
			}
		}
		i++
	}
	return 0, false
}

func skipString(s string, i int) (int, bool) {
	for i < len(s) {
		switch {
		case s[i] == '\\':
			i += 2
			continue
		case s[i] == '\n':
			return 0, false
		case s[i] == '"':
			return i + 1, true
		case strings.HasPrefix(s[i:], "$${") || strings.HasPrefix(s[i:], "%%{"):
			i += 3
			continue
		case strings.HasPrefix(s[i:], "${") || strings.HasPrefix(s[i:], "%{"):
			end, ok := skipBody(s, i+2)
			if !ok {
				return 0, false
			}
			i = end
			continue
		}
		i++
	}
	return 0, false
}
