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
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
)

// A Command is one simple command written in the documentation.
type Command struct {
	File string // relative to the repository: "docs/terraform.md"
	Line int
	// Env holds the variables set for it: exported earlier in its code block, or assigned before
	// the program (KOPS_FEATURE_FLAGS=… kops …).
	Env map[string]string
	// Dir is the folder it runs in, relative to the repository, as `cd` lines of its block leave it.
	Dir  string
	Args []string // the program and its arguments
	// Span is set for a code span of the prose: it names a command (a synopsis, or a command
	// without the arguments it needs), where a code block's line is one to run.
	Span bool
}

// Where names the command for a failure message.
func (c Command) Where() string {
	return fmt.Sprintf("%s:%d: %s", c.File, c.Line, strings.Join(c.Args, " "))
}

func errorAt(file string, line int, err error) error {
	return fmt.Errorf("%s:%d: %w", file, line, err)
}

// Files lists the documentation: README.md, every .md under docs/ and the command reference.
func Files(root string) ([]string, error) {
	files := []string{"README.md"}
	var matches []string
	for _, pattern := range []string{filepath.Join(root, "docs", "*.md"), filepath.Join(root, ReferenceDir, "*.md")} {
		m, err := filepath.Glob(pattern)
		if err != nil {
			return nil, err
		}
		matches = append(matches, m...)
	}
	for _, m := range matches {
		rel, err := filepath.Rel(root, m)
		if err != nil {
			return nil, err
		}
		files = append(files, filepath.ToSlash(rel))
	}
	sort.Strings(files[1:])
	return files, nil
}

var (
	fence      = regexp.MustCompile("^\\s*(```+|~~~+)\\s*([A-Za-z0-9_-]*)")
	inlineCode = regexp.MustCompile("`([^`\n]+)`")
	// shellLangs are the code blocks that hold command lines.
	shellLangs = map[string]bool{"sh": true, "bash": true, "shell": true, "console": true}
	assignment = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*=`)
)

// Commands returns every command written in the documentation: each simple command of a shell
// code block, and each inline code span whose first word is one of programs (inline spans are
// prose, so only the programs the caller asks for are taken from them).
func Commands(root string, programs ...string) ([]Command, error) {
	files, err := Files(root)
	if err != nil {
		return nil, err
	}
	var all []Command
	for _, f := range files {
		cmds, err := commandsOf(root, f, programs)
		if err != nil {
			return nil, err
		}
		all = append(all, cmds...)
	}
	return all, nil
}

func commandsOf(root, file string, programs []string) ([]Command, error) {
	fh, err := os.Open(filepath.Join(root, file))
	if err != nil {
		return nil, err
	}
	defer func() { _ = fh.Close() }()
	var out []Command
	var (
		inBlock, shell bool
		marker         string
		env            map[string]string
		dir            string
		pending        string
		pendingLine    int
	)
	sc := bufio.NewScanner(fh)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if m := fence.FindStringSubmatch(line); m != nil && (!inBlock || strings.HasPrefix(strings.TrimSpace(line), marker)) {
			if inBlock {
				inBlock = false
				continue
			}
			inBlock, marker, shell = true, m[1], shellLangs[m[2]]
			env, dir, pending = map[string]string{}, ".", ""
			continue
		}
		if inBlock {
			if !shell {
				continue
			}
			text := strings.TrimPrefix(strings.TrimSpace(line), "$ ")
			if pending == "" {
				pendingLine = n
			}
			if strings.HasSuffix(text, "\\") {
				pending += strings.TrimSuffix(text, "\\") + " "
				continue
			}
			logical := pending + text
			pending = ""
			cmds, err := words(logical)
			if err != nil {
				return nil, errorAt(file, pendingLine, err)
			}
			for _, words := range cmds {
				c := Command{File: file, Line: pendingLine, Env: map[string]string{}, Dir: dir}
				for k, v := range env {
					c.Env[k] = v
				}
				if len(words) > 0 && words[0] == "export" {
					for _, a := range words[1:] {
						if k, v, ok := strings.Cut(a, "="); ok {
							env[k] = v
						}
					}
					continue
				}
				for len(words) > 0 && assignment.MatchString(words[0]) {
					k, v, _ := strings.Cut(words[0], "=")
					c.Env[k] = v
					words = words[1:]
				}
				if len(words) == 0 {
					continue
				}
				if words[0] == "cd" && len(words) == 2 {
					dir = filepath.ToSlash(filepath.Clean(filepath.Join(dir, words[1])))
				}
				c.Args = words
				out = append(out, c)
			}
			continue
		}
		for _, m := range inlineCode.FindAllStringSubmatch(line, -1) {
			// A span names a command, often as a synopsis (`kops get [clusters|…] [-o yaml]`):
			// its words are taken as written, not as a shell would split them.
			words := strings.Fields(strings.ReplaceAll(m[1], `\|`, "|")) // \| in a table cell is |
			c := Command{File: file, Line: n, Env: map[string]string{}, Dir: ".", Span: true}
			for len(words) > 0 && assignment.MatchString(words[0]) {
				k, v, _ := strings.Cut(words[0], "=")
				c.Env[k] = strings.Trim(v, `"'`)
				words = words[1:]
			}
			if len(words) > 0 && slices.Contains(programs, words[0]) {
				c.Args = words
				out = append(out, c)
			}
		}
	}
	return out, sc.Err()
}
