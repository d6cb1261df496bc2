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
	"strings"
	"unicode"
)

// A Link is a relative link of the documentation: a path (empty for the same file) and an anchor.
type Link struct {
	File   string
	Line   int
	Target string
}

var (
	inlineLink    = regexp.MustCompile(`\]\(([^)\s]+)(?:\s+"[^"]*")?\)`)
	referenceLink = regexp.MustCompile(`^\s*\[[^\]]+\]:\s*(\S+)`)
	scheme        = regexp.MustCompile(`^[a-zA-Z][a-zA-Z0-9+.-]*:`)
)

// Links returns the relative links of the documentation, outside code blocks and code spans.
func Links(root string) ([]Link, error) {
	files, err := Files(root)
	if err != nil {
		return nil, err
	}
	var links []Link
	for _, f := range files {
		err := scanProse(filepath.Join(root, f), func(n int, line string) {
			line = inlineCode.ReplaceAllString(line, "")
			var targets []string
			for _, m := range inlineLink.FindAllStringSubmatch(line, -1) {
				targets = append(targets, m[1])
			}
			if m := referenceLink.FindStringSubmatch(line); m != nil {
				targets = append(targets, m[1])
			}
			for _, t := range targets {
				if !scheme.MatchString(t) {
					links = append(links, Link{File: f, Line: n, Target: t})
				}
			}
		})
		if err != nil {
			return nil, err
		}
	}
	return links, nil
}

// scanProse calls fn for each line of a markdown file that is not inside a fenced code block.
func scanProse(path string, fn func(n int, line string)) error {
	fh, err := os.Open(path)
	if err != nil {
		return err
	}
	defer func() { _ = fh.Close() }()
	inBlock, marker := false, ""
	sc := bufio.NewScanner(fh)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if m := fence.FindStringSubmatch(line); m != nil && (!inBlock || strings.HasPrefix(strings.TrimSpace(line), marker)) {
			inBlock, marker = !inBlock, m[1]
			continue
		}
		if !inBlock {
			fn(n, line)
		}
	}
	return sc.Err()
}

// Resolve checks a link: its file is inside the repository and exists, and its anchor, if any, is
// a heading of that file (as GitHub names headings).
func Resolve(root string, l Link) error {
	path, anchor, _ := strings.Cut(l.Target, "#")
	target := filepath.Join(root, l.File)
	if path != "" {
		target = filepath.Join(root, filepath.Dir(l.File), filepath.FromSlash(path))
	}
	rel, err := filepath.Rel(root, target)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return fmt.Errorf("%s:%d: link %q leaves the repository", l.File, l.Line, l.Target)
	}
	if _, err := os.Stat(target); err != nil {
		return fmt.Errorf("%s:%d: link %q: no such file in the repository", l.File, l.Line, l.Target)
	}
	if anchor == "" {
		return nil
	}
	if !strings.HasSuffix(target, ".md") {
		return fmt.Errorf("%s:%d: link %q: an anchor into a file that is not markdown", l.File, l.Line, l.Target)
	}
	anchors, err := Anchors(target)
	if err != nil {
		return err
	}
	if !anchors[anchor] {
		return fmt.Errorf("%s:%d: link %q: %s has no heading with the anchor %q", l.File, l.Line, l.Target, filepath.ToSlash(rel), anchor)
	}
	return nil
}

var heading = regexp.MustCompile(`^#{1,6}\s+(.*?)\s*#*\s*$`)

// Anchors returns the anchors GitHub gives a markdown file's headings: lower case, letters,
// digits, "-" and "_" kept, spaces made "-", everything else dropped; a repeated anchor gets
// "-1", "-2", ….
func Anchors(path string) (map[string]bool, error) {
	anchors := map[string]bool{}
	seen := map[string]int{}
	err := scanProse(path, func(_ int, line string) {
		m := heading.FindStringSubmatch(line)
		if m == nil {
			return
		}
		slug := Slug(m[1])
		if k := seen[slug]; k > 0 {
			anchors[fmt.Sprintf("%s-%d", slug, k)] = true
		} else {
			anchors[slug] = true
		}
		seen[slug]++
	})
	return anchors, err
}

// Slug is GitHub's anchor of one heading's text.
func Slug(text string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(text) {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_':
			b.WriteRune(r)
		case r == ' ':
			b.WriteByte('-')
		}
	}
	return b.String()
}

// A PathMention is a code span of the prose that names a file or folder of the repository
// (`pkg/validation`, `hack/cluster.sh`, `../shared/x.md`).
type PathMention struct {
	File string
	Line int
	Path string
}

// repoPath is a span that reads as a path: it starts with one of the repository's top folders, or
// leaves it with ../ to name a document, and holds no placeholder, glob or space. (A ../ span that
// is not a document is an example of input, such as a refused `../../etc/passwd`.)
var repoPath = regexp.MustCompile(`^((cmd|pkg|docs|hack|tests|upup|channels|util|nodeup)/[A-Za-z0-9_./-]*|(\.\./)+[A-Za-z0-9_./-]*\.md)$`)

// PathMentions returns the code spans of the documentation's prose that name repository paths.
func PathMentions(root string) ([]PathMention, error) {
	files, err := Files(root)
	if err != nil {
		return nil, err
	}
	var out []PathMention
	for _, f := range files {
		err := scanProse(filepath.Join(root, f), func(n int, line string) {
			for _, m := range inlineCode.FindAllStringSubmatch(line, -1) {
				if repoPath.MatchString(m[1]) {
					out = append(out, PathMention{File: f, Line: n, Path: m[1]})
				}
			}
		})
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}
