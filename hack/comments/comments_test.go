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
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRepositoryComments is the gate: a package comment outside doc.go, a test name or a measured
// figure in a comment of non-test code fails make test.
func TestRepositoryComments(t *testing.T) {
	findings, err := Check("../..", nil)
	require.NoError(t, err)
	for _, f := range findings {
		t.Error(f)
	}
}

func TestCheckLine(t *testing.T) {
	declared := map[string]bool{"TestClient": true}
	for _, tc := range []struct {
		line string
		bad  bool
	}{
		// test names
		{"TestReadRefusesLinks pins the text.", true},
		{"BenchmarkRender keeps it so.", true},
		{"FuzzDecode found it.", true},
		{"each func BenchmarkXxx(*testing.B) in a _test.go file", false},
		{"a package's TestMain starts the server", false},
		{"the TestClient image is loaded first", false}, // an identifier of non-test code
		{"Testing this needs a cluster; Fuzzy matching is not wanted.", false},
		{`"BenchmarkX" alone starts a benchmark`, false},
		// measured figures
		{"about 15 MB of resident memory", true},
		{"a cold apply takes 1.2 s", true},
		{"it takes 300ms on a small machine", true},
		{"12 allocs per call", true},
		{"cuts start-up by 40%", true},
		{"3x faster than encoding/json", true},
		{"a few times faster than the generic encoder", true},
		{"gigabytes for a 20 KB document", true},
		// bounds, syntax and words are not measurements
		{"share the annotations' 256 KiB limit", false},
		{"the most the CRD accepts (64 KiB)", false},
		{"probe to be enforced; default 30 seconds", false},
		{"backoff of up to 17 minutes between tries", false},
		{`summarized (e.g. "1024 bytes, sha256 ...")`, false},
		{"Benchtime string // -benchtime: `20x` or `2s`", false},
		{"\t  Contents   1234 bytes, sha256 0123", false}, // preformatted example output
		{"registry.k8s.io/coredns/coredns:v1.12.4", false},
		{"ten minutes leaves no doubt that its writer is gone", false},
		{"lists of similar names compress several times over", false},
	} {
		what := CheckLine(tc.line, declared)
		if tc.bad {
			assert.NotEmpty(t, what, "should be flagged: %s", tc.line)
		} else {
			assert.Empty(t, what, "should pass: %s", tc.line)
		}
	}
}

// TestCheckFindsPackageCommentsOutsideDocGo checks the package-comment rule and that test files are
// held to it but not to the figure rule.
func TestCheckFindsPackageCommentsOutsideDocGo(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{
		"a/doc.go":        "// Package a is documented here.\npackage a\n",
		"a/a.go":          "// Package a is documented twice.\npackage a\n\n// X takes 3 ms.\nvar X = 1\n",
		"a/a_test.go":     "package a\n\n// TestX takes 3 ms.\nfunc TestX() {}\n",
		"b/b_test.go":     "// Package b is documented in a test file.\npackage b\n",
		"c/testdata/c.go": "// Package c takes 5 MB.\npackage c\n",
		"skip/s.go":       "// Package s takes 5 MB.\npackage s\n",
	}
	for name, content := range files {
		require.NoError(t, os.MkdirAll(filepath.Dir(filepath.Join(root, name)), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(root, name), []byte(content), 0o644))
	}
	findings, err := Check(root, []string{"skip"})
	require.NoError(t, err)
	var got []string
	for _, f := range findings {
		got = append(got, f.File+":"+string(rune('0'+f.Line)))
	}
	assert.Equal(t, []string{"a/a.go:0", "a/a.go:4", "b/b_test.go:0"}, got)
}
