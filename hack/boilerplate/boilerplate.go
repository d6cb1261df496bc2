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

package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path"
	"regexp"
	"strings"
)

// Owner is who the notice names.
const Owner = "The kops addon operators Authors"

// notice is the licence text, one line a slice element, without comment markers.
var notice = []string{
	"Copyright %s " + Owner + ".",
	"",
	`Licensed under the Apache License, Version 2.0 (the "License");`,
	"you may not use this file except in compliance with the License.",
	"You may obtain a copy of the License at",
	"",
	"    http://www.apache.org/licenses/LICENSE-2.0",
	"",
	"Unless required by applicable law or agreed to in writing, software",
	`distributed under the License is distributed on an "AS IS" BASIS,`,
	"WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.",
	"See the License for the specific language governing permissions and",
	"limitations under the License.",
}

// style is how a kind of file carries the notice.
type style int

const (
	none style = iota
	goBlock
	hashLines
)

// styleOf says how the file at name (slash-separated, relative to the repository) carries the
// notice, or none when it carries none.
func styleOf(name string) style {
	for _, dir := range strings.Split(path.Dir(name), "/") {
		if dir == "testdata" || dir == "expected" {
			return none
		}
	}
	switch base := path.Base(name); {
	case strings.HasSuffix(base, ".go"):
		return goBlock
	case strings.HasSuffix(base, ".sh"), base == "Makefile":
		return hashLines
	}
	return none
}

// render is the notice for year in style s, ending with a blank line.
func render(s style, year string) string {
	var b strings.Builder
	if s == goBlock {
		b.WriteString("/*\n")
	}
	for i, line := range notice {
		if i == 0 {
			line = fmt.Sprintf(line, year)
		}
		switch {
		case s == goBlock:
			b.WriteString(line)
		case line == "":
			b.WriteString("#")
		default:
			b.WriteString("# " + line)
		}
		b.WriteString("\n")
	}
	if s == goBlock {
		b.WriteString("*/\n")
	}
	b.WriteString("\n")
	return b.String()
}

// year matches the year of a notice; any year is fine, the one the file was first written in.
var year = regexp.MustCompile(`^(/\*\n|# )Copyright (\d{4}) `)

// split cuts what must stay first from the rest: a shell script's "#!" line, or a Go file's
// "//go:build" line and the blank line after it (gofmt moves a constraint above any comment).
func split(s style, src []byte) (first, rest []byte) {
	lead := map[style]string{hashLines: "#!", goBlock: "//go:build "}[s]
	if lead == "" || !bytes.HasPrefix(src, []byte(lead)) {
		return nil, src
	}
	i := bytes.IndexByte(src, '\n')
	if i < 0 {
		return append(src, '\n'), nil
	}
	if s == goBlock && bytes.HasPrefix(src[i+1:], []byte("\n")) {
		i++
	}
	return src[:i+1], src[i+1:]
}

// hasNotice says whether src starts (after a "#!" line) with the notice, of any year.
func hasNotice(s style, src []byte) bool {
	_, rest := split(s, src)
	m := year.FindSubmatch(rest)
	return m != nil && bytes.HasPrefix(rest, []byte(render(s, string(m[2]))))
}

// withNotice is src with the notice of yr put first (after a "#!" line).
func withNotice(s style, src []byte, yr string) []byte {
	first, rest := split(s, src)
	out := append([]byte{}, first...)
	out = append(out, render(s, yr)...)
	return append(out, rest...)
}

// trackedFiles are the files git tracks in dir, and those it does not ignore, slash-separated.
func trackedFiles(dir string) ([]string, error) {
	cmd := exec.Command("git", "ls-files", "--cached", "--others", "--exclude-standard", "-z")
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("listing the repository's files with git in %s: %w", dir, err)
	}
	var files []string
	for _, f := range strings.Split(string(out), "\x00") {
		if f != "" {
			files = append(files, f)
		}
	}
	return files, nil
}

// missing lists the files under root that should carry the notice and do not.
func missing(root string) ([]string, error) {
	files, err := trackedFiles(root)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, f := range files {
		s := styleOf(f)
		if s == none {
			continue
		}
		src, err := os.ReadFile(path.Join(root, f))
		if os.IsNotExist(err) {
			continue // deleted in the work tree, not yet in git
		}
		if err != nil {
			return nil, err
		}
		if !hasNotice(s, src) {
			out = append(out, f)
		}
	}
	return out, nil
}

// fix adds the notice of yr to each of files under root, keeping each file's mode. A file that
// starts with a Copyright line that is not the notice is left alone and named in the error: a
// second notice above a damaged one would hide it.
func fix(root string, files []string, yr string) error {
	var damaged []string
	for _, f := range files {
		name := path.Join(root, f)
		info, err := os.Stat(name)
		if err != nil {
			return err
		}
		src, err := os.ReadFile(name)
		if err != nil {
			return err
		}
		s := styleOf(f)
		if _, rest := split(s, src); year.Match(rest) {
			damaged = append(damaged, f)
			continue
		}
		if err := os.WriteFile(name, withNotice(s, src, yr), info.Mode().Perm()); err != nil {
			return err
		}
	}
	if len(damaged) > 0 {
		return fmt.Errorf("these files start with a notice that differs from the licence's, mend them by hand: %s", strings.Join(damaged, ", "))
	}
	return nil
}

func run(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("boilerplate", flag.ContinueOnError)
	doFix := fs.Bool("fix", false, "add the notice to the files that lack it")
	root := fs.String("root", ".", "the repository")
	yr := fs.String("year", "2026", "the year a notice added by -fix names")
	if err := fs.Parse(args); err != nil {
		return err
	}
	files, err := missing(*root)
	if err != nil {
		return err
	}
	if *doFix {
		return fix(*root, files, *yr)
	}
	for _, f := range files {
		if _, err := fmt.Fprintln(stdout, f); err != nil {
			return err
		}
	}
	if len(files) > 0 {
		return fmt.Errorf("%d files lack the licence notice: run `go run ./hack/boilerplate -fix`", len(files))
	}
	return nil
}

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "boilerplate:", err)
		os.Exit(1)
	}
}
