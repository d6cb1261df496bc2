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
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const addonsRoot = "pkg/addons/"

// registry are the files that list the addons' folders: adding an addon is its folder and a line
// in one of them.
var registry = map[string]bool{
	"pkg/model/addons/operators.go": true, // Operators, the operator registry
	"pkg/model/addons/addon.go":     true, // BuildersFor, the builders of addons without an operator
}

// sharedMachinery are the folders every addon builds on; they know no addon.
var sharedMachinery = []string{"pkg/operator/", "pkg/model/addonapi/", "pkg/model/addons/", "pkg/templates/", "channels/"}

// addonOf is the addon folder an import path or repository path lies in ("coredns"), or "".
func addonOf(path string) string {
	rest, ok := strings.CutPrefix(strings.TrimPrefix(path, "k8s.io/kops/"), addonsRoot)
	if !ok {
		return ""
	}
	name, _, _ := strings.Cut(rest, "/")
	return name
}

// importsOf are the imports of every non-test Go file of the main module, by repository path.
func importsOf(t *testing.T) map[string][]string {
	out := map[string][]string{}
	err := filepath.WalkDir(repo, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(repo, path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			switch {
			case rel != "." && (strings.HasPrefix(d.Name(), ".") || strings.HasPrefix(d.Name(), "_") || d.Name() == "testdata"),
				rel == "tests/e2e", rel == "hack/tools":
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(rel, ".go") || strings.HasSuffix(rel, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		for _, imp := range f.Imports {
			p, err := strconv.Unquote(imp.Path.Value)
			if err != nil {
				return err
			}
			out[rel] = append(out[rel], p)
		}
		return nil
	})
	require.NoError(t, err)
	return out
}

// Adding an addon touches its folder and the registry: each addon's kops-side package is reached
// from the registry only, the shared machinery imports no addon, and no addon imports another.
func TestAddonFoldersMeetOnlyAtTheRegistry(t *testing.T) {
	imports := importsOf(t)
	require.Contains(t, imports, "pkg/model/addons/operators.go", "the walk is the real one")
	registered := map[string]bool{}
	for file, imps := range imports {
		for _, imp := range imps {
			addon := addonOf(imp)
			if addon == "" {
				continue
			}
			from := addonOf(file)
			switch {
			case from != "":
				assert.Equal(t, from, addon, "%s (addon %s) imports %s: addons share only the machinery", file, from, imp)
			case registry[file]:
				registered[addon] = true
			case strings.HasSuffix(imp, "/kopsmodel"):
				assert.Fail(t, "outside the registry", "%s imports %s: an addon's kopsmodel is listed by the registry only", file, imp)
			default:
				for _, shared := range sharedMachinery {
					assert.False(t, strings.HasPrefix(file, shared), "%s imports %s: the shared machinery knows no addon", file, imp)
				}
			}
		}
	}
	entries, err := os.ReadDir(filepath.Join(repo, addonsRoot))
	require.NoError(t, err)
	for _, e := range entries {
		if e.IsDir() {
			assert.True(t, registered[e.Name()], "pkg/addons/%s is in no registry file", e.Name())
		}
	}
}
