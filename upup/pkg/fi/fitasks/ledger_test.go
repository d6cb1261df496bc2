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

package fitasks

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"k8s.io/kops/upup/pkg/fi"
)

// writeOwned runs what the terraform target and the node files run: the ledger, the files, then
// the stale deletion, planned by a dry run first and applied by a direct one.
func writeOwned(t *testing.T, c *fi.Context, files map[string][]byte, refuseForeign bool) (*fi.DryRunTarget, error) {
	t.Helper()
	ledger := &LedgerUpdate{Name: LedgerName, Location: LedgerName, Files: files, RefuseForeign: refuseForeign}
	tasks := []fi.Task{ledger}
	var deps []fi.TaskKey
	var keep []string
	for loc, data := range files {
		f := &ManagedFile{Name: loc, Location: loc, Contents: data, Deps: []fi.TaskKey{ledger.Key()}}
		tasks = append(tasks, f)
		deps = append(deps, f.Key())
		keep = append(keep, loc)
	}
	tasks = append(tasks, &StaleFiles{Name: "stale", Ledger: LedgerName, Keep: keep, Report: []string{"data"},
		RemoveEmptyFolders: true, Under: "data/", Deps: deps})
	graph, err := fi.BuildGraph(tasks)
	require.NoError(t, err)
	preview := &fi.DryRunTarget{}
	if _, err := fi.Run(context.Background(), graph, c, preview, fi.RunOptions{}); err != nil {
		return preview, err
	}
	_, err = fi.Run(context.Background(), graph, c, &fi.DirectTarget{}, fi.RunOptions{})
	return preview, err
}

func read(t *testing.T, c *fi.Context, loc string) (string, bool) {
	t.Helper()
	data, ok, err := current(c, loc)
	require.NoError(t, err)
	return string(data), ok
}

func TestLedgerOwnsOnlyWhatKopsWrote(t *testing.T) {
	v1 := map[string][]byte{"main.tf": []byte("v1"), "data/a": []byte("a1"), "data/b": []byte("b1")}
	v2 := map[string][]byte{"main.tf": []byte("v2"), "data/a": []byte("a2")}

	t.Run("a file in the way that kops did not write is refused, and nothing is written", func(t *testing.T) {
		c, mem := memContext(t, map[string]string{"main.tf": "theirs"})
		_, err := writeOwned(t, c, v1, true)
		assert.ErrorContains(t, err, "kops would overwrite files it did not write (or that changed since it wrote them): main.tf;")
		writes, _ := mem.Stats()
		assert.Equal(t, 1, writes, "only the test's own file")
		got, _ := read(t, c, "main.tf")
		assert.Equal(t, "theirs", got)
	})
	t.Run("without RefuseForeign a file kops owns by its name is overwritten", func(t *testing.T) {
		c, _ := memContext(t, map[string]string{"main.tf": "old"})
		_, err := writeOwned(t, c, v1, false)
		require.NoError(t, err)
		got, _ := read(t, c, "main.tf")
		assert.Equal(t, "v1", got)
	})
	t.Run("kops's own files are rewritten; stale ones go unless changed; others' are named", func(t *testing.T) {
		c, _ := memContext(t, map[string]string{"data/README": "theirs"})
		_, err := writeOwned(t, c, v1, true)
		require.NoError(t, err)
		require.NoError(t, c.ConfigBase.Join("data/b").WriteFile([]byte("b changed by hand")))
		v3 := map[string][]byte{"main.tf": []byte("v1"), "data/a": []byte("a1")}
		_, err = writeOwned(t, c, v3, true)
		require.NoError(t, err)
		_, ok := read(t, c, "data/b")
		assert.True(t, ok, "a stale file changed since kops wrote it is left alone")

		require.NoError(t, c.ConfigBase.Join("data/c").WriteFile([]byte("c")))
		_, err = writeOwned(t, c, map[string][]byte{"main.tf": []byte("v1"), "data/a": []byte("a1"), "data/c": []byte("c")}, true)
		require.NoError(t, err, "a file holding exactly what kops writes is kops's")
		preview, err := writeOwned(t, c, v2, true)
		require.NoError(t, err)
		_, ok = read(t, c, "data/c")
		assert.False(t, ok, "a stale file kops wrote is deleted")
		got, _ := read(t, c, "main.tf")
		assert.Equal(t, "v2", got)
		for _, theirs := range []string{"data/README", "data/b"} {
			_, ok := read(t, c, theirs)
			assert.True(t, ok, theirs)
		}
		var report []string
		for _, ch := range preview.Changes() {
			report = append(report, ch.Key.String())
		}
		assert.Contains(t, report, "StaleFiles/stale")
	})
	t.Run("a run killed after the ledger is written leaves every file kops's", func(t *testing.T) {
		c, _ := memContext(t, nil)
		_, err := writeOwned(t, c, v1, true)
		require.NoError(t, err)
		// The ledger of a v2 run is written; the run dies before writing a file.
		ledger := &LedgerUpdate{Name: LedgerName, Location: LedgerName, Files: v2, RefuseForeign: true}
		require.NoError(t, ledger.RenderDirect(context.Background(), c, nil))
		v4 := map[string][]byte{"main.tf": []byte("v4"), "data/a": []byte("a4")}
		_, err = writeOwned(t, c, v4, true)
		require.NoError(t, err, "main.tf still holds v1, which the ledger still records")
		got, _ := read(t, c, "main.tf")
		assert.Equal(t, "v4", got)
	})
	t.Run("a ledger that cannot be read refuses the run", func(t *testing.T) {
		c, _ := memContext(t, map[string]string{LedgerName: "{not json", "main.tf": "v1"})
		_, err := writeOwned(t, c, v2, true)
		assert.ErrorContains(t, err, "is not a ledger kops can read")
		got, _ := read(t, c, "main.tf")
		assert.Equal(t, "v1", got)
	})
}

func TestStaleFilesRemovesFoldersItEmptied(t *testing.T) {
	c, _ := memContext(t, map[string]string{"data/g/kops-file": "x", "data/h/kops-file": "y", "data/h/nodeupconfig.yaml": "kops's"})
	ledger := &LedgerUpdate{Name: LedgerName, Location: LedgerName, Files: map[string][]byte{"data/g/kops-file": []byte("x"), "data/h/kops-file": []byte("y")}}
	require.NoError(t, ledger.RenderDirect(context.Background(), c, nil))
	_, err := writeOwned(t, c, nil, false)
	require.NoError(t, err)
	exists, err := c.ConfigBase.Join("data/g").Exists()
	require.NoError(t, err)
	assert.False(t, exists, "a group's folder the deletion emptied goes")
	got, ok := read(t, c, "data/h/nodeupconfig.yaml")
	assert.True(t, ok)
	assert.Equal(t, "kops's", got, "another tool's file in the folder stays, and so does the folder")
}
