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

// OutputFileKind is the TaskKey kind of the files written below --out, so reports tell them
// apart from the state store's ManagedFiles.
const OutputFileKind = "TerraformFile"

// OutputTasks returns the tasks that bring the --out directory to files (from Files): a ledger of
// the files kops wrote there (fitasks.LedgerUpdate, written first), one task per file, and one
// that deletes data files no longer rendered. Run them with fi.Run against a fi.Context whose
// ConfigBase is the --out directory, with a dry-run target to preview and a direct one to write:
// writes are atomic and a file whose bytes are unchanged is not rewritten. The folder is shared
// with the user (terraform's own state, their files): kops overwrites or deletes only files whose
// bytes it wrote, refuses to overwrite anything else, and names other data/ files as left alone.
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

// LedgerFile records, in --out, the files kops wrote there with their hashes.
const LedgerFile = fitasks.LedgerName

// outputFile is a ManagedFile below --out. kubernetes.tf's diff is shown per resource, so a
// change names the launch template it touches even when the lines are far from its header.
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

// staleData deletes data files that nothing renders any more.
type staleData struct{ fitasks.StaleFiles }

func (s *staleData) Key() fi.TaskKey {
	return fi.TaskKey{Kind: OutputFileKind, Name: DataDir + "/ (no longer rendered)"}
}

// blockDiff diffs two terraform files block by block, each hunk headed by the block it belongs
// to ("resource aws_launch_template.nodes-a-example-com"). ok is false when either file is not
// cut into blocks with certainty (topLevelBlocks); the caller keeps the whole-file diff then.
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
