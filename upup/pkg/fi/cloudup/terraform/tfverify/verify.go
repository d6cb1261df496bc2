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

package tfverify

import (
	"errors"
	"fmt"
	"maps"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclparse"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// Verify parses every .tf file and returns every unresolved reference and unread file under dataDir.
func Verify(files map[string][]byte, dataDir string) error {
	parser := hclparse.NewParser()
	var bodies []*hclsyntax.Body
	var problems []string
	for _, name := range slices.Sorted(maps.Keys(files)) {
		if !strings.HasSuffix(name, ".tf") {
			continue
		}
		f, diags := parser.ParseHCL(files[name], name)
		if diags.HasErrors() {
			problems = append(problems, diags.Error())
			continue
		}
		bodies = append(bodies, f.Body.(*hclsyntax.Body))
	}
	defined := map[string]bool{}
	for _, body := range bodies {
		for _, b := range body.Blocks {
			switch {
			case b.Type == "resource" && len(b.Labels) == 2:
				defined[b.Labels[0]+"."+b.Labels[1]] = true
			case b.Type == "data" && len(b.Labels) == 2:
				defined["data."+b.Labels[0]+"."+b.Labels[1]] = true
			case b.Type == "locals":
				for name := range b.Body.Attributes {
					defined["local."+name] = true
				}
			}
		}
	}
	read := map[string]bool{}
	for _, body := range bodies {
		problems = append(problems, checkBody(body, defined, files, read)...)
	}
	for _, name := range slices.Sorted(maps.Keys(files)) {
		if strings.HasPrefix(name, dataDir+"/") && !read[name] {
			problems = append(problems, fmt.Sprintf("%s is not read by any resource", name))
		}
	}
	if len(problems) == 0 {
		return nil
	}
	sort.Strings(problems)
	return errors.New(strings.Join(problems, "\n"))
}

func checkBody(body *hclsyntax.Body, defined map[string]bool, files map[string][]byte, read map[string]bool) []string {
	var problems []string
	// A bare object key parses as a traversal but names no variable; VisitAll visits it first.
	keys := map[hclsyntax.Node]bool{}
	_ = hclsyntax.VisitAll(body, func(node hclsyntax.Node) hcl.Diagnostics {
		switch n := node.(type) {
		case *hclsyntax.ObjectConsKeyExpr:
			if !n.ForceNonLiteral {
				keys[n.Wrapped] = true
			}
		case *hclsyntax.ScopeTraversalExpr:
			if keys[n] {
				break
			}
			if p := checkTraversal(n.Traversal, defined); p != "" {
				problems = append(problems, p)
			}
		case *hclsyntax.FunctionCallExpr:
			switch n.Name {
			case "file", "filebase64":
				if p := checkFileCall(n, files, read); p != "" {
					problems = append(problems, p)
				}
			case "templatefile":
				problems = append(problems, checkTemplateCall(n, files, read)...)
			}
		}
		return nil
	})
	return problems
}

func checkTraversal(tr hcl.Traversal, defined map[string]bool) string {
	root := tr.RootName()
	if root == "path" {
		return ""
	}
	parts := 1
	if root == "data" {
		parts = 2
	}
	var name string
	for i := 1; i <= parts && i < len(tr); i++ {
		if attr, ok := tr[i].(hcl.TraverseAttr); ok {
			name += "." + attr.Name
		}
	}
	name = strings.TrimPrefix(name, ".")
	if ref := root + "." + name; !defined[ref] {
		return fmt.Sprintf("%s: reference to %s, which is not defined", tr.SourceRange(), ref)
	}
	return ""
}

func checkFileCall(call *hclsyntax.FunctionCallExpr, files map[string][]byte, read map[string]bool) string {
	if len(call.Args) != 1 {
		return fmt.Sprintf("%s: %s() takes one argument", call.Range(), call.Name)
	}
	_, problem := readPath(call, files, read)
	return problem
}

// checkTemplateCall checks a templatefile(path, {vars}) call: the file exists, parses as a template,
// and names no variable the call does not set.
func checkTemplateCall(call *hclsyntax.FunctionCallExpr, files map[string][]byte, read map[string]bool) []string {
	if len(call.Args) != 2 {
		return []string{fmt.Sprintf("%s: templatefile() takes a path and an object", call.Range())}
	}
	rel, problem := readPath(call, files, read)
	if problem != "" {
		return []string{problem}
	}
	vars, isObject := call.Args[1].(*hclsyntax.ObjectConsExpr)
	if !isObject {
		return []string{fmt.Sprintf("%s: templatefile()'s variables must be an object", call.Range())}
	}
	set := map[string]bool{}
	for _, item := range vars.Items {
		if name := hcl.ExprAsKeyword(item.KeyExpr); name != "" {
			set[name] = true
		}
	}
	tmpl, diags := hclsyntax.ParseTemplate(files[rel], rel, hcl.InitialPos)
	if diags.HasErrors() {
		return []string{fmt.Sprintf("%s: %s", rel, diags.Error())}
	}
	var problems []string
	for _, v := range tmpl.Variables() {
		if !set[v.RootName()] {
			problems = append(problems, fmt.Sprintf("%s: %s uses %s, which templatefile() does not set", call.Range(), rel, v.RootName()))
		}
	}
	return problems
}

// readPath evaluates a file function's path argument and marks the data file read.
func readPath(call *hclsyntax.FunctionCallExpr, files map[string][]byte, read map[string]bool) (string, string) {
	ctx := &hcl.EvalContext{Variables: map[string]cty.Value{
		"path": cty.ObjectVal(map[string]cty.Value{"module": cty.StringVal(".")}),
	}}
	v, diags := call.Args[0].Value(ctx)
	if diags.HasErrors() || !v.Type().Equals(cty.String) || v.IsNull() {
		return "", fmt.Sprintf("%s: %s() needs a path built from path.module only", call.Range(), call.Name)
	}
	rel := path.Clean(v.AsString())
	if _, ok := files[rel]; !ok {
		return "", fmt.Sprintf("%s: %s(%q): no such data file", call.Range(), call.Name, rel)
	}
	read[rel] = true
	return rel, ""
}
