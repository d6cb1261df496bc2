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

package terraform

import (
	"context"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/pmezard/go-difflib/difflib"

	"k8s.io/kops/upup/pkg/fi"
	"k8s.io/kops/upup/pkg/fi/fitasks"
)

// OutputFileKind tells files below --out from the state store's ManagedFiles in reports.
const OutputFileKind = "TerraformFile"

// OutputTasks returns the tasks that bring --out to files: the ledger first, one task per file, and
// one deleting data files no longer rendered. The folder is shared with the user, so kops overwrites
// or deletes only files whose bytes it wrote and refuses the rest.
func OutputTasks(files map[string][]byte) []fi.Task {
	ledger := &fitasks.LedgerUpdate{Name: LedgerFile, Location: LedgerFile, Files: files, RefuseForeign: true}
	tasks := []fi.Task{ledger}
	var deps []fi.TaskKey
	for _, path := range slices.Sorted(maps.Keys(files)) {
		f := &outputFile{ManagedFile: fitasks.ManagedFile{Name: path, Location: path, Contents: files[path], Deps: []fi.TaskKey{ledger.Key()}}}
		tasks = append(tasks, f)
		deps = append(deps, f.Key())
	}
	stale := &staleData{StaleFiles: fitasks.StaleFiles{
		Name:   DataDir,
		Ledger: LedgerFile,
		Keep:   slices.Sorted(maps.Keys(files)),
		Report: []string{DataDir},
		// kubernetes.tf stops reading a file before the file goes.
		Deps: deps,
	}}
	return append(tasks, stale)
}

const LedgerFile = fitasks.LedgerName

// outputFile diffs kubernetes.tf per resource, so a change names the launch template it touches.
type outputFile struct{ fitasks.ManagedFile }

func (f *outputFile) Key() fi.TaskKey { return fi.TaskKey{Kind: OutputFileKind, Name: f.Name} }

func (f *outputFile) Plan(ctx context.Context, c *fi.Context) (*fi.Change, error) {
	change, err := f.ManagedFile.Plan(ctx, c)
	if err != nil || change.Action != fi.ActionModify || !strings.HasSuffix(f.Location, ".tf") {
		return change, err
	}
	current, err := c.ConfigBase.Join(f.Location).ReadFile()
	if err != nil {
		return nil, err
	}
	if diff, ok := blockDiff(current, f.Contents); ok {
		change.Diff = diff
	}
	return change, nil
}

type staleData struct{ fitasks.StaleFiles }

func (s *staleData) Key() fi.TaskKey {
	return fi.TaskKey{Kind: OutputFileKind, Name: DataDir + "/ (no longer rendered)"}
}

// blockDiff heads each hunk with its block; ok is false when either file is not cut with certainty.
func blockDiff(current, desired []byte) (string, bool) {
	a, okA := topLevelBlocks(current)
	b, okB := topLevelBlocks(desired)
	if !okA || !okB {
		return "", false
	}
	names := map[string]bool{}
	for n := range a {
		names[n] = true
	}
	for n := range b {
		names[n] = true
	}
	sorted := make([]string, 0, len(names))
	for n := range names {
		sorted = append(sorted, n)
	}
	sort.Strings(sorted)
	var out strings.Builder
	for _, n := range sorted {
		if a[n] == b[n] {
			continue
		}
		diff, err := difflib.GetUnifiedDiffString(difflib.UnifiedDiff{
			A: difflib.SplitLines(a[n]), B: difflib.SplitLines(b[n]),
			FromFile: n + " (current)", ToFile: n + " (desired)", Context: 3,
		})
		if err != nil {
			return "", false
		}
		out.WriteString(diff)
	}
	return out.String(), true
}
