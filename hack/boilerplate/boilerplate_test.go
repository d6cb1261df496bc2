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
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestEveryFileHasTheNotice is the gate: a source file added without the notice fails make test.
func TestEveryFileHasTheNotice(t *testing.T) {
	files, err := missing("../..")
	require.NoError(t, err)
	assert.Empty(t, files, "run `go run ./hack/boilerplate -fix` to add the licence notice")
}

func TestStyleOf(t *testing.T) {
	for name, want := range map[string]style{
		"cmd/kops/main.go": goBlock,
		"hack/cluster.sh":  hashLines,
		"Makefile":         hashLines,
		"README.md":        none,
		"go.mod":           none,
		"hack/tools/images/testdata/hello/main.go":                                    none,
		"tests/integration/nodesetup/allow-ipv6/expected/kops-pod-metadata-access.sh": none,
		"pkg/model/addons/testdata.go":                                                goBlock,
	} {
		assert.Equal(t, want, styleOf(name), name)
	}
}

// TestFixThenCheck writes files without the notice, or with a damaged one, into a fresh git
// repository, and checks that the check finds exactly those, that -fix mends them keeping the
// "#!" line, the rest of the file and its mode, and that what it writes still builds as Go.
func TestFixThenCheck(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	root := t.TempDir()
	damaged := strings.Replace(render(goBlock, "2024"), "AS IS", "AS-IS", 1) + "package b\n"
	files := map[string]string{
		"a.go":          "// Package a is documented.\npackage a\n",
		"b.go":          damaged,
		"ok.go":         "//go:build linux\n\n" + render(goBlock, "2019") + "package a\n",
		"build.go":      "//go:build unix\n\npackage a\n",
		"run.sh":        "#!/usr/bin/env bash\nset -eu\necho hi\n",
		"Makefile":      "all:\n\ttrue\n",
		"notes.md":      "no notice here\n",
		"testdata/x.go": "package x\n",
	}
	for name, content := range files {
		require.NoError(t, os.MkdirAll(filepath.Dir(filepath.Join(root, name)), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(root, name), []byte(content), 0o755))
	}
	git := exec.Command("git", "init", "-q")
	git.Dir = root
	require.NoError(t, git.Run())

	got, err := missing(root)
	require.NoError(t, err)
	assert.ElementsMatch(t, []string{"a.go", "b.go", "build.go", "run.sh", "Makefile"}, got)

	err = run([]string{"-fix", "-root", root, "-year", "2026"}, &strings.Builder{})
	assert.ErrorContains(t, err, "mend them by hand: b.go")
	got, err = missing(root)
	require.NoError(t, err)
	assert.ElementsMatch(t, []string{"b.go"}, got, "a damaged notice is not mended by adding a second one above it; it stays reported")
	src, err := os.ReadFile(filepath.Join(root, "b.go"))
	require.NoError(t, err)
	assert.Equal(t, damaged, string(src), "the damaged file is left as it was")

	script, err := os.ReadFile(filepath.Join(root, "run.sh"))
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(string(script), "#!/usr/bin/env bash\n# Copyright 2026 "+Owner+".\n#\n"), "%s", script)
	assert.True(t, strings.HasSuffix(string(script), "limitations under the License.\n\nset -eu\necho hi\n"), "%s", script)
	info, err := os.Stat(filepath.Join(root, "run.sh"))
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o755), info.Mode().Perm())

	src, err = os.ReadFile(filepath.Join(root, "a.go"))
	require.NoError(t, err)
	assert.True(t, strings.HasSuffix(string(src), "*/\n\n// Package a is documented.\npackage a\n"), "%s", src)
	src, err = os.ReadFile(filepath.Join(root, "build.go"))
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(string(src), "//go:build unix\n\n/*\nCopyright 2026 "), "a build constraint stays first, where gofmt puts it: %s", src)
	fmtOut, err := exec.Command("gofmt", "-l", root).CombinedOutput()
	require.NoError(t, err, "%s", fmtOut)
	assert.Empty(t, string(fmtOut), "gofmt would change what -fix wrote")

	vet := exec.Command("go", "vet", "./a.go")
	vet.Dir = root
	vet.Env = append(os.Environ(), "GO111MODULE=off")
	out, err := vet.CombinedOutput()
	assert.NoError(t, err, "%s", out)

	err = run([]string{"-root", root}, &strings.Builder{})
	assert.ErrorContains(t, err, "1 files lack the licence notice")
}
