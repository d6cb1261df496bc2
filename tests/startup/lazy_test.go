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

package startup

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const repo = "../.."

// eager are the calls that build something costly: a compiled regular expression (a counted
// repetition such as {0,127} compiles to thousands of instructions), a parsed template. Made in a
// package-level initialiser, every command pays for them at start-up, used or not.
var eager = map[string]bool{
	"regexp.MustCompile": true, "regexp.Compile": true, "regexp.MustCompilePOSIX": true,
	"template.Must": true, "template.New": true,
}

// productionFiles lists the Go files that are linked into the binaries: not tests, not the test
// and tool modules, not _output.
func productionFiles(t *testing.T) []string {
	var files []string
	err := filepath.WalkDir(repo, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(repo, path)
		if d.IsDir() {
			switch {
			case path == repo:
			case rel == "tests" || rel == "hack" || strings.HasPrefix(d.Name(), ".") || strings.HasPrefix(d.Name(), "_") || d.Name() == "testdata":
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(path, ".go") && !strings.HasSuffix(path, "_test.go") {
			files = append(files, path)
		}
		return nil
	})
	require.NoError(t, err)
	require.NotEmpty(t, files)
	return files
}

// TestNothingHeavyAtPackageInit: no production package compiles a regular expression or parses a
// template in a package-level initialiser, nor has an init function; they are built on first use
// (sync.OnceValue), so that `kops version` does not pay for what `kops update` needs.
func TestNothingHeavyAtPackageInit(t *testing.T) {
	fset := token.NewFileSet()
	for _, path := range productionFiles(t) {
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		require.NoError(t, err)
		for _, decl := range f.Decls {
			switch d := decl.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil && d.Name.Name == "init" {
					assert.Fail(t, "an init function", "%s: func init runs at every command's start; build on first use instead", fset.Position(d.Pos()))
				}
			case *ast.GenDecl:
				if d.Tok != token.VAR {
					continue
				}
				for _, spec := range d.Specs {
					for _, value := range spec.(*ast.ValueSpec).Values {
						for _, call := range eagerCalls(value) {
							assert.Fail(t, "built at package init", "%s: %s in a package-level initialiser; wrap it in sync.OnceValue",
								fset.Position(call.Pos()), calleeName(call))
						}
					}
				}
			}
		}
	}
}

// TestNoAWSSDKAtPackageInit: no production package calls into the AWS SDK (or smithy-go) in a
// package-level initialiser: the s3:// store makes its SDK client on first use of an s3:// path,
// so a command that touches no bucket does no SDK work beyond the SDK's own package init.
func TestNoAWSSDKAtPackageInit(t *testing.T) {
	fset := token.NewFileSet()
	checked := 0
	for _, path := range productionFiles(t) {
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		require.NoError(t, err)
		sdk := sdkImports(f)
		if len(sdk) == 0 {
			continue
		}
		checked++
		for _, decl := range f.Decls {
			d, ok := decl.(*ast.GenDecl)
			if !ok || d.Tok != token.VAR {
				continue
			}
			for _, spec := range d.Specs {
				for _, value := range spec.(*ast.ValueSpec).Values {
					for _, call := range callsInto(value, sdk) {
						assert.Fail(t, "the AWS SDK at package init", "%s: %s in a package-level initialiser; call it on first use of an s3:// path",
							fset.Position(call.Pos()), calleeName(call))
					}
				}
			}
		}
	}
	require.NotZero(t, checked, "some production file imports the SDK (the s3:// store)")
}

// sdkImports are the names under which f imports a package of the AWS SDK or smithy-go.
func sdkImports(f *ast.File) map[string]bool {
	names := map[string]bool{}
	for _, imp := range f.Imports {
		p := strings.Trim(imp.Path.Value, `"`)
		if !strings.HasPrefix(p, "github.com/aws/aws-sdk-go-v2") && !strings.HasPrefix(p, "github.com/aws/smithy-go") {
			continue
		}
		name := p[strings.LastIndex(p, "/")+1:]
		if imp.Name != nil {
			name = imp.Name.Name
		}
		names[name] = true
	}
	return names
}

// callsInto finds the calls of functions of the packages named in an initialiser, outside function
// literals (whose bodies run only when called).
func callsInto(expr ast.Expr, pkgs map[string]bool) []*ast.CallExpr {
	return callsWhere(expr, func(name string) bool { return name != "" && pkgs[strings.SplitN(name, ".", 2)[0]] })
}

// TestSDKCallsAreFound: the check sees SDK calls under their import names, and spares function
// literals and other packages.
func TestSDKCallsAreFound(t *testing.T) {
	src := `package p
import (
	"github.com/aws/aws-sdk-go-v2/service/s3"
	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"strings"
)
var a = s3.NewDefaultEndpointResolver()
var b = struct{ c any }{awshttp.NewBuildableClient()}
var c = func() any { return s3.New(s3.Options{}) }
var d = strings.ToUpper("x")
`
	f, err := parser.ParseFile(token.NewFileSet(), "p.go", src, parser.SkipObjectResolution)
	require.NoError(t, err)
	sdk := sdkImports(f)
	assert.Equal(t, map[string]bool{"s3": true, "awshttp": true}, sdk)
	var got []string
	for _, decl := range f.Decls[1:] {
		for _, value := range decl.(*ast.GenDecl).Specs[0].(*ast.ValueSpec).Values {
			for _, call := range callsInto(value, sdk) {
				got = append(got, calleeName(call))
			}
		}
	}
	assert.Equal(t, []string{"s3.NewDefaultEndpointResolver", "awshttp.NewBuildableClient"}, got)
}

// eagerCalls finds eager calls in an initialiser, outside function literals.
func eagerCalls(expr ast.Expr) []*ast.CallExpr {
	return callsWhere(expr, func(name string) bool { return eager[name] })
}

// callsWhere finds the calls in expr whose callee's name (calleeName) matches, outside function
// literals (whose bodies run only when called).
func callsWhere(expr ast.Expr, match func(name string) bool) []*ast.CallExpr {
	var found []*ast.CallExpr
	ast.Inspect(expr, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.CallExpr:
			if match(calleeName(n)) {
				found = append(found, n)
			}
		}
		return true
	})
	return found
}

func calleeName(call *ast.CallExpr) string {
	if sel, ok := call.Fun.(*ast.SelectorExpr); ok {
		if id, ok := sel.X.(*ast.Ident); ok {
			return id.Name + "." + sel.Sel.Name
		}
	}
	return ""
}

// TestEagerCallsAreFound: the check sees through nesting and spares function literals.
func TestEagerCallsAreFound(t *testing.T) {
	cases := map[string]int{
		"regexp.MustCompile(`a{0,127}`)":                                           1,
		"template.Must(template.New(\"x\").Parse(\"y\"))":                          2,
		"struct{ re *regexp.Regexp }{regexp.MustCompile(`x`)}":                     1,
		"sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`x`) })": 0,
		"strings.ToUpper(\"x\")":                                                   0,
	}
	for src, want := range cases {
		expr, err := parser.ParseExpr(src)
		require.NoError(t, err, src)
		assert.Len(t, eagerCalls(expr), want, src)
	}
}
