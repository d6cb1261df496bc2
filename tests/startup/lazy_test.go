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

// eagerCalls finds eager calls in an initialiser, outside function literals (whose bodies run
// only when called).
func eagerCalls(expr ast.Expr) []*ast.CallExpr {
	var found []*ast.CallExpr
	ast.Inspect(expr, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.CallExpr:
			if eager[calleeName(n)] {
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
