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
	"bufio"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
)

// An Entry is one line of the benchmark list (hack/perf-benchmarks.txt): which benchmarks to run,
// where, how often, and the heading their figures go under in docs/performance.md.
type Entry struct {
	Module    string // folder of the Go module, relative to the repository: "." or "tests/e2e"
	Package   string // package pattern, relative to Module: "./upup/pkg/fi/cloudup"
	Bench     string // -bench regular expression
	Benchtime string // -benchtime: "20x" or "2s"
	Count     int    // -count: the table shows the median and the range of the runs
	Title     string
	re        *regexp.Regexp
}

// ParseSpec reads the benchmark list: one entry per line, fields separated by "|"
// (module | package | bench | benchtime | count | title); "#" starts a comment line.
func ParseSpec(r io.Reader) ([]Entry, error) {
	var entries []Entry
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, "|")
		if len(f) != 6 {
			return nil, fmt.Errorf("line %d: want 6 fields separated by |, got %d: %q", n, len(f), line)
		}
		for i := range f {
			f[i] = strings.TrimSpace(f[i])
		}
		count, err := strconv.Atoi(f[4])
		if err != nil || count < 1 {
			return nil, fmt.Errorf("line %d: count %q is not a positive number", n, f[4])
		}
		// `go test` splits -bench at "/" into one expression per level of sub-benchmarks; the list
		// names top-level functions only, so a "/" would not mean what it seems to.
		if strings.Contains(f[2], "/") {
			return nil, fmt.Errorf("line %d: bench %q: name top-level benchmarks only (no /)", n, f[2])
		}
		re, err := regexp.Compile(f[2])
		if err != nil {
			return nil, fmt.Errorf("line %d: bench %q: %v", n, f[2], err)
		}
		if !strings.HasPrefix(f[1], "./") {
			return nil, fmt.Errorf("line %d: package %q must start with ./", n, f[1])
		}
		entries = append(entries, Entry{Module: f[0], Package: f[1], Bench: f[2], Benchtime: f[3], Count: count, Title: f[5], re: re})
	}
	return entries, sc.Err()
}

// Matches says whether the entry runs the top-level benchmark function name, as `go test -bench`
// decides it (the expression is matched against the top-level name only here: the list names
// functions, sub-benchmarks come with them).
func (e Entry) Matches(name string) bool {
	top, _, _ := strings.Cut(name, "/")
	return e.re.MatchString(top)
}
