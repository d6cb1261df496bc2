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
	"path/filepath"
	"strings"
)

const (
	specFile = "hack/perf-benchmarks.txt"
	docFile  = "docs/performance.md"
)

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "perfdoc:", err)
		os.Exit(1)
	}
}

func run(args []string, out io.Writer) error {
	fl := flag.NewFlagSet("perfdoc", flag.ContinueOnError)
	root := fl.String("root", ".", "the repository's top folder")
	var m Machine
	fl.StringVar(&m.Date, "date", "", "when the benchmarks ran")
	fl.StringVar(&m.Commit, "commit", "", "the commit measured")
	fl.StringVar(&m.GoVersion, "go", "", "go version")
	fl.StringVar(&m.Cores, "cores", "", "number of cores")
	fl.StringVar(&m.Memory, "memory", "", "memory of the machine")
	fl.StringVar(&m.LoadBefore, "load-before", "", "load average before the runs")
	fl.StringVar(&m.LoadAfter, "load-after", "", "load average after the runs")
	if len(args) == 0 {
		return fmt.Errorf("give a command: list, render or check")
	}
	cmd := args[0]
	if err := fl.Parse(args[1:]); err != nil {
		return err
	}
	entries, err := readSpec(*root)
	if err != nil {
		return err
	}
	switch cmd {
	case "list":
		for _, e := range entries {
			if _, err := fmt.Fprintf(out, "%s\t%s\t%s\t%s\t%d\n", e.Module, e.Package, e.Bench, e.Benchtime, e.Count); err != nil {
				return err
			}
		}
		return nil
	case "check":
		funcs, err := Benchmarks(*root)
		if err != nil {
			return err
		}
		doc, err := os.ReadFile(filepath.Join(*root, docFile))
		if err != nil {
			return err
		}
		return Check(funcs, entries, string(doc))
	case "render":
		var runs []Run
		for _, name := range fl.Args() {
			data, err := os.ReadFile(name)
			if err != nil {
				return err
			}
			r, err := Parse(bytes.NewReader(data))
			if err != nil {
				return fmt.Errorf("%s: %w", name, err)
			}
			if m.CPU == "" {
				m.CPU = r.CPU
			}
			runs = append(runs, r)
		}
		block, err := Render(entries, runs, m)
		if err != nil {
			return err
		}
		path := filepath.Join(*root, docFile)
		doc, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		updated, err := Replace(string(doc), block)
		if err != nil {
			return err
		}
		tmp := path + ".tmp"
		if err := os.WriteFile(tmp, []byte(updated), 0o644); err != nil {
			return err
		}
		return os.Rename(tmp, path)
	}
	return fmt.Errorf("unknown command %q: list, render or check", cmd)
}

func readSpec(root string) ([]Entry, error) {
	data, err := os.ReadFile(filepath.Join(root, specFile))
	if err != nil {
		return nil, err
	}
	entries, err := ParseSpec(strings.NewReader(string(data)))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", specFile, err)
	}
	return entries, nil
}
