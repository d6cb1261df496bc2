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

package golden

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Input is the file that makes a directory a golden case.
const Input = "in-v1alpha2.yaml"

// updating says whether hack/update-expected.sh runs the tests: expected files are rewritten
// instead of compared.
var updating = os.Getenv("UPDATE_EXPECTED") == "1"

// Cases returns the golden cases in the test's working directory, failing if fewer than min are
// found (a moved directory must not turn the test into one that checks nothing).
func Cases(t *testing.T, min int) []string {
	t.Helper()
	entries, err := os.ReadDir(".")
	require.NoError(t, err)
	var cases []string
	for _, e := range entries {
		if _, err := os.Stat(filepath.Join(e.Name(), Input)); err == nil {
			cases = append(cases, e.Name())
		}
	}
	require.GreaterOrEqual(t, len(cases), min, "golden cases found")
	return cases
}

// Check compares got (slash-separated paths relative to dir/expected) with the files under
// dir/expected: the same set of files, each byte for byte. With UPDATE_EXPECTED=1 it replaces
// dir/expected with got instead.
func Check(t *testing.T, dir string, got map[string]string) {
	t.Helper()
	expected := filepath.Join(dir, "expected")
	if updating {
		write(t, expected, got)
		return
	}
	want := map[string]string{}
	require.NoError(t, filepath.WalkDir(expected, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		rel, _ := filepath.Rel(expected, path)
		want[filepath.ToSlash(rel)] = string(data)
		return err
	}), "expected files missing: run hack/update-expected.sh")
	assert.Equal(t, SortedKeys(want), SortedKeys(got), "the set of generated files")
	for path, data := range want {
		if g, ok := got[path]; ok {
			assert.Equal(t, data, g, "%s differs from expected; if the change is intended, run hack/update-expected.sh and read the diff", path)
		}
	}
}

func write(t *testing.T, dir string, got map[string]string) {
	require.NoError(t, os.RemoveAll(dir))
	for path, data := range got {
		full := filepath.Join(dir, filepath.FromSlash(path))
		require.NoError(t, os.MkdirAll(filepath.Dir(full), 0o755))
		require.NoError(t, os.WriteFile(full, []byte(data), 0o644))
	}
}

// SortedKeys lists a file map's paths in order.
func SortedKeys(m map[string]string) []string {
	return slices.Sorted(maps.Keys(m))
}
