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

// A Result is one line of `go test -bench` output: a benchmark's name (without the -GOMAXPROCS
// suffix), the package it ran in, and its measures by unit ("ns/op", "B/op", "requests/op", ...).
type Result struct {
	Package  string
	Name     string
	Measures map[string]float64
}

// A Run is what one `go test -bench` output says: its results in order, and the CPU it named.
type Run struct {
	CPU     string
	Results []Result
}

// procsSuffix is the "-2" that the testing package appends to a name when GOMAXPROCS > 1.
var procsSuffix = regexp.MustCompile(`-\d+$`)

// Parse reads `go test -bench` output (several packages' output may be concatenated). Lines that are
// not results (PASS, ok, logs) are skipped; a result line that does not parse is an error, so a
// changed output format cannot silently drop figures.
func Parse(r io.Reader) (Run, error) {
	var run Run
	pkg := ""
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 1024*1024)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "pkg: "):
			pkg = strings.TrimSpace(strings.TrimPrefix(line, "pkg: "))
		case strings.HasPrefix(line, "cpu: "):
			run.CPU = strings.TrimSpace(strings.TrimPrefix(line, "cpu: "))
		case strings.HasPrefix(line, "Benchmark"):
			fields := strings.Fields(line)
			if len(fields) < 4 || len(fields)%2 != 0 {
				// "BenchmarkX" alone starts a benchmark whose subtests print their own lines, and
				// a log line may begin with a benchmark's name: neither has an iteration count.
				if len(fields) < 2 || !isCount(fields[1]) {
					continue
				}
				return Run{}, fmt.Errorf("line %d: a result needs pairs of value and unit: %q", n, line)
			}
			if !isCount(fields[1]) {
				continue
			}
			res := Result{Package: pkg, Name: procsSuffix.ReplaceAllString(fields[0], ""), Measures: map[string]float64{}}
			for i := 2; i < len(fields); i += 2 {
				v, err := strconv.ParseFloat(fields[i], 64)
				if err != nil {
					return Run{}, fmt.Errorf("line %d: value %q of %s: %v", n, fields[i], fields[i+1], err)
				}
				res.Measures[fields[i+1]] = v
			}
			run.Results = append(run.Results, res)
		}
	}
	return run, sc.Err()
}

func isCount(s string) bool {
	n, err := strconv.Atoi(s)
	return err == nil && n > 0
}
