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
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// A Func is a benchmark function found in the repository: its module folder and package folder as
// the list spells them, and its name.
type Func struct {
	Module, Package, Name string
}

// Benchmarks finds every benchmark function under root: each func BenchmarkXxx(*testing.B) in a
// _test.go file, with the module it belongs to (the nearest go.mod above it).
func Benchmarks(root string) ([]Func, error) {
	var funcs []Func
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != root && (strings.HasPrefix(d.Name(), ".") || strings.HasPrefix(d.Name(), "_") || d.Name() == "testdata" || d.Name() == "bin") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Recv != nil || !isBenchmark(fn) {
				continue
			}
			module, pkg, err := placeOf(root, filepath.Dir(path))
			if err != nil {
				return err
			}
			funcs = append(funcs, Func{Module: module, Package: pkg, Name: fn.Name.Name})
		}
		return nil
	})
	return funcs, err
}

// isBenchmark is the testing package's rule: the name is Benchmark followed by nothing or by a
// character that is not a lower-case letter, and the one parameter is *testing.B.
func isBenchmark(fn *ast.FuncDecl) bool {
	rest, ok := strings.CutPrefix(fn.Name.Name, "Benchmark")
	if !ok || (rest != "" && rest[0] >= 'a' && rest[0] <= 'z') {
		return false
	}
	params := fn.Type.Params.List
	if len(params) != 1 || len(params[0].Names) > 1 {
		return false
	}
	star, ok := params[0].Type.(*ast.StarExpr)
	if !ok {
		return false
	}
	sel, ok := star.X.(*ast.SelectorExpr)
	return ok && sel.Sel.Name == "B"
}

// placeOf returns the module folder (relative to root) holding dir and dir relative to it as "./x".
func placeOf(root, dir string) (string, string, error) {
	for m := dir; ; m = filepath.Dir(m) {
		if _, err := os.Stat(filepath.Join(m, "go.mod")); err == nil {
			module, err := filepath.Rel(root, m)
			if err != nil {
				return "", "", err
			}
			pkg, err := filepath.Rel(m, dir)
			if err != nil {
				return "", "", err
			}
			return filepath.ToSlash(module), "./" + strings.TrimPrefix(filepath.ToSlash(pkg), "."), nil
		}
		if m == root || m == filepath.Dir(m) {
			return "", "", fmt.Errorf("%s is in no module under %s", dir, root)
		}
	}
}

func cleanPackage(p string) string {
	p = strings.TrimSuffix(p, "/")
	if p == "." {
		return "./"
	}
	return p
}

// Check says what keeps docs/performance.md from being what hack/update-performance.sh would
// write: a benchmark the list does not run (or runs twice), an entry that runs nothing, a
// generated block from another list, or a figure whose benchmark is gone.
func Check(funcs []Func, entries []Entry, doc string) error {
	var errs []error
	used := make([]bool, len(entries))
	for _, f := range funcs {
		var hits []int
		for i, e := range entries {
			if e.Module == f.Module && cleanPackage(e.Package) == cleanPackage(f.Package) && e.Matches(f.Name) {
				hits = append(hits, i)
				used[i] = true
			}
		}
		switch len(hits) {
		case 0:
			errs = append(errs, fmt.Errorf("%s (%s %s) is in no entry of the list: add it, so that its figures are in docs/performance.md", f.Name, f.Module, f.Package))
		case 1:
		default:
			errs = append(errs, fmt.Errorf("%s (%s %s) is run by %d entries of the list", f.Name, f.Module, f.Package, len(hits)))
		}
	}
	for i, e := range entries {
		if !used[i] {
			errs = append(errs, fmt.Errorf("entry %q runs no benchmark that exists", e.Title))
		}
	}
	start, end, err := blockBounds(doc)
	if err != nil {
		return errors.Join(append(errs, err)...)
	}
	block := doc[start:end]
	var got, want []string
	for _, line := range strings.Split(block, "\n") {
		if strings.HasPrefix(line, entryPrefix) {
			got = append(got, strings.TrimSuffix(strings.TrimPrefix(line, entryPrefix), " -->"))
		}
	}
	for _, e := range entries {
		want = append(want, fmt.Sprintf("%s | %s | %s | %s | %d | %s", e.Module, e.Package, e.Bench, e.Benchtime, e.Count, e.Title))
	}
	if !slices.Equal(got, want) {
		errs = append(errs, fmt.Errorf("the figures in docs/performance.md were generated from another list of benchmarks: run hack/update-performance.sh\n  in the document: %q\n  in the list:     %q", got, want))
	}
	names := map[string]bool{}
	for _, f := range funcs {
		names[f.Name] = true
	}
	for _, m := range figureName.FindAllStringSubmatch(block, -1) {
		top, _, _ := strings.Cut(m[1], "/")
		if !names[top] {
			errs = append(errs, fmt.Errorf("docs/performance.md shows figures of %s, which no longer exists: run hack/update-performance.sh", m[1]))
		}
	}
	return errors.Join(errs...)
}

var figureName = regexp.MustCompile("(?m)^\\| `(Benchmark[^`]*)` \\|")
