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
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// A Finding is one comment line, or one file, that breaks a rule.
type Finding struct {
	File string // slash-separated, relative to the folder walked
	Line int    // 0 for a rule about the whole file
	What string
}

func (f Finding) String() string {
	if f.Line == 0 {
		return fmt.Sprintf("%s: %s", f.File, f.What)
	}
	return fmt.Sprintf("%s:%d: %s", f.File, f.Line, f.What)
}

var (
	// testName is an identifier of a test, benchmark or fuzz function as `go test` finds them.
	testName = regexp.MustCompile(`\b(?:Test|Benchmark|Fuzz)[A-Z][A-Za-z0-9_]*`)
	// placeholders are how Go's documentation spells "any such function"; they name no test.
	placeholders = map[string]bool{"TestXxx": true, "BenchmarkXxx": true, "FuzzXxx": true, "TestMain": true}
	// figure is a number with a unit of time, memory or allocation, or a percentage.
	figure = regexp.MustCompile(`\b\d+(?:[.,]\d+)?\s?(?:ns|µs|us|ms|s|sec|seconds|minutes|B|bytes|KB|kB|KiB|MB|MiB|GB|GiB|allocs|allocations|B/op)(?:\b|$)|\b\d+(?:\.\d+)?\s?%`)
	// ratio is a speed-up or size ratio ("3x faster", "a few times smaller").
	ratio = regexp.MustCompile(`(?i)(?:\b\d+(?:\.\d+)?\s?[x×]|\btimes)\s+(?:faster|slower|smaller|larger|bigger|fewer|more|less)\b`)
	// bound is a word that makes the figure on its line a contract rather than a measurement.
	bound = regexp.MustCompile(`(?i)\b(?:limits?|limited|max|maximum|at most|the most|up to|no more than|default|defaults|timeout|deadline|allowance|cap|capped)\b`)
	// quoted is text in double quotes or backquotes: an example of syntax or a message, not a claim.
	quoted = regexp.MustCompile("\"[^\"]*\"|`[^`]*`")
)

// CheckLine returns what is wrong with one line of a comment of non-test code, or "". The rule:
//
//   - A test name is an identifier Test…, Benchmark… or Fuzz… followed by a capital letter, other
//     than the placeholders TestXxx, BenchmarkXxx and FuzzXxx, go test's hook TestMain, and the
//     identifiers the non-test code walked uses (a field such as "TestClient" is no test).
//   - A measured figure is a number followed by a unit of time (ns, µs, ms, s, seconds, minutes),
//     of memory (B, bytes, KB, KiB, MB, MiB, GB, GiB) or of allocation (allocs, B/op), a
//     percentage, or a ratio ("3x faster", "a few times smaller"). A number with a unit is a
//     contract, not a measurement, when its line says which bound it is (limit, maximum, at most,
//     the most, up to, default, timeout, deadline, allowance, cap): "the API server's 1.5 MiB object limit".
//   - Text in quotes or backquotes is an example of syntax or output, not a claim, and so is a
//     preformatted line of a doc comment (one indented with a tab); neither is checked.
func CheckLine(text string, declared map[string]bool) string {
	if strings.HasPrefix(text, "\t") {
		return ""
	}
	text = quoted.ReplaceAllString(text, `""`)
	for _, name := range testName.FindAllString(text, -1) {
		if !placeholders[name] && !declared[name] {
			return fmt.Sprintf("names the test %s: say what it proves instead; the test's own comment is where its name belongs", name)
		}
	}
	if m := ratio.FindString(text); m != "" {
		return fmt.Sprintf("quotes the measurement %q: say the choice, and leave figures to docs/performance.md", m)
	}
	if m := figure.FindString(text); m != "" && !bound.MatchString(text) {
		return fmt.Sprintf("quotes the figure %q: say the choice, and leave figures to docs/performance.md (a figure that is a bound says so: limit, maximum, default...)", m)
	}
	return ""
}

// Check walks root and returns every breach of the rules, skipping hidden folders, folders whose
// name starts with "_", testdata folders and the folders in skip (slash-separated, relative to
// root). Test files are held to the package-comment rule only.
func Check(root string, skip []string) ([]Finding, error) {
	type parsed struct {
		rel  string
		file *ast.File
	}
	var files []parsed
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			name := d.Name()
			if rel != "." && (strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || name == "testdata" || skipped(rel, skip)) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(rel, ".go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		files = append(files, parsed{rel, f})
		return nil
	})
	if err != nil {
		return nil, err
	}

	declared := map[string]bool{}
	for _, p := range files {
		if !strings.HasSuffix(p.rel, "_test.go") {
			ast.Inspect(p.file, func(n ast.Node) bool {
				if id, ok := n.(*ast.Ident); ok {
					declared[id.Name] = true
				}
				return true
			})
		}
	}
	var findings []Finding
	for _, p := range files {
		if p.file.Doc != nil && path.Base(p.rel) != "doc.go" {
			findings = append(findings, Finding{File: p.rel, What: "has a package comment: it belongs in " + path.Join(path.Dir(p.rel), "doc.go") + ", and only there"})
		}
		if !strings.HasSuffix(p.rel, "_test.go") {
			findings = append(findings, checkComments(fset, p.rel, p.file.Comments, declared)...)
		}
	}
	sort.Slice(findings, func(i, j int) bool {
		if findings[i].File != findings[j].File {
			return findings[i].File < findings[j].File
		}
		return findings[i].Line < findings[j].Line
	})
	return findings, nil
}

// checkComments applies CheckLine to every line of the comments of one file.
func checkComments(fset *token.FileSet, file string, groups []*ast.CommentGroup, declared map[string]bool) []Finding {
	var findings []Finding
	for _, group := range groups {
		for _, c := range group.List {
			line := fset.Position(c.Slash).Line
			for i, text := range strings.Split(c.Text, "\n") {
				text = strings.TrimPrefix(text, "//")
				text = strings.TrimPrefix(text, "/*")
				text = strings.TrimPrefix(text, " ")
				if what := CheckLine(text, declared); what != "" {
					findings = append(findings, Finding{File: file, Line: line + i, What: what})
				}
			}
		}
	}
	return findings
}

// skipped says whether rel is one of the folders in skip or inside one.
func skipped(rel string, skip []string) bool {
	for _, s := range skip {
		if rel == s || strings.HasPrefix(rel, s+"/") {
			return true
		}
	}
	return false
}

func main() {
	flag.Parse()
	dirs := flag.Args()
	if len(dirs) == 0 {
		dirs = []string{"."}
	}
	found := false
	for _, dir := range dirs {
		findings, err := Check(dir, nil)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		for _, f := range findings {
			found = true
			fmt.Printf("%s/%s\n", strings.TrimSuffix(dir, "/"), f)
		}
	}
	if found {
		os.Exit(1)
	}
}
