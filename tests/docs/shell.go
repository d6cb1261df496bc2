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

package docs

import (
	"fmt"
	"strings"
)

// words splits one logical shell line into simple commands, each a list of words, the way a shell
// reads the parts a docs check needs: quotes ('…' and "…") group, backslash escapes, "#" at the
// start of a word begins a comment, and &&, ||, ;, | and & separate commands. Expansions ($PWD,
// <placeholder>) are kept as they are written; they stand for one word each.
func words(line string) ([][]string, error) {
	var cmds [][]string
	var cur []string
	var w strings.Builder
	inWord := false
	endWord := func() {
		if inWord {
			cur = append(cur, w.String())
			w.Reset()
			inWord = false
		}
	}
	endCmd := func() {
		endWord()
		if len(cur) > 0 {
			cmds = append(cmds, cur)
			cur = nil
		}
	}
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case c == '\'':
			j := strings.IndexByte(line[i+1:], '\'')
			if j < 0 {
				return nil, fmt.Errorf("unterminated ' in %q", line)
			}
			w.WriteString(line[i+1 : i+1+j])
			inWord = true
			i += j + 1
		case c == '"':
			j := i + 1
			for ; j < len(line) && line[j] != '"'; j++ {
				if line[j] == '\\' && j+1 < len(line) {
					j++
				}
				w.WriteByte(line[j])
			}
			if j >= len(line) {
				return nil, fmt.Errorf("unterminated \" in %q", line)
			}
			inWord = true
			i = j
		case c == '\\' && i+1 < len(line):
			w.WriteByte(line[i+1])
			inWord = true
			i++
		case c == '#' && !inWord:
			endCmd()
			return cmds, nil
		case c == ' ' || c == '\t':
			endWord()
		case c == ';' || c == '|' || c == '&':
			endCmd()
			if i+1 < len(line) && (line[i+1] == c) {
				i++
			}
		default:
			w.WriteByte(c)
			inWord = true
		}
	}
	endCmd()
	return cmds, nil
}
