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
	"k8s.io/kops/util/pkg/vfs"
)

func TestStaleFiles(t *testing.T) {
	mem := &vfs.MemFS{}
	base, err := vfs.ParsePath("memfs://stale/cluster", mem)
	require.NoError(t, err)
	for _, f := range []string{
		"addons/coredns.addons.k8s.io/k8s-1.12.yaml",
		"addons/operator.coredns.addons.x-k8s.io/0.1.0.yaml",
		"addons/operator.coredns.addons.x-k8s.io/0.2.0.yaml",
		"addons/kops-controller.addons.k8s.io/k8s-1.16.yaml",
	} {
		require.NoError(t, base.Join(f).WriteFile([]byte("x")))
	}
	task := &StaleFiles{
		Name:        "addons",
		Directories: []string{"addons/coredns.addons.k8s.io", "addons/operator.coredns.addons.x-k8s.io", "addons/never-written"},
		Keep:        []string{"addons/operator.coredns.addons.x-k8s.io/0.2.0.yaml"},
	}
	c := &fi.Context{ConfigBase: base}

	change, err := task.Plan(context.Background(), c)
	require.NoError(t, err)
	assert.Equal(t, fi.ActionDelete, change.Action)
	assert.Equal(t, []fi.FieldChange{
		{Name: "coredns.addons.k8s.io", Old: "addons/coredns.addons.k8s.io/k8s-1.12.yaml"},
		{Name: "operator.coredns.addons.x-k8s.io", Old: "addons/operator.coredns.addons.x-k8s.io/0.1.0.yaml"},
	}, change.Fields)

	require.NoError(t, task.RenderDirect(context.Background(), c, change))
	for f, want := range map[string]bool{
		"addons/coredns.addons.k8s.io/k8s-1.12.yaml":         false,
		"addons/operator.coredns.addons.x-k8s.io/0.1.0.yaml": false,
		"addons/operator.coredns.addons.x-k8s.io/0.2.0.yaml": true,
		"addons/kops-controller.addons.k8s.io/k8s-1.16.yaml": true, // not a directory the task owns
	} {
		exists, err := base.Join(f).Exists()
		require.NoError(t, err)
		assert.Equal(t, want, exists, f)
	}

	again, err := task.Plan(context.Background(), c)
	require.NoError(t, err)
	assert.Equal(t, fi.ActionNone, again.Action)
}

func TestStaleFilesRefusesEscapingDirectory(t *testing.T) {
	base, err := vfs.ParsePath("memfs://stale/cluster", &vfs.MemFS{})
	require.NoError(t, err)
	task := &StaleFiles{Name: "x", Directories: []string{"../other-cluster"}}
	_, err = task.Plan(context.Background(), &fi.Context{ConfigBase: base})
	assert.ErrorContains(t, err, "must be a clean relative path")
}

// One task may own files both ways: a folder kops owns whole loses every file it no longer writes,
// a shared folder only the recorded files whose bytes kops wrote.
func TestStaleFilesOwnsByFolderAndByBytes(t *testing.T) {
	c, _ := memContext(t, map[string]string{
		"addons/a/old.yaml": "anything", "addons/a/new.yaml": "new",
		"shared/kops-file": "x", "shared/changed": "changed by hand", "shared/theirs": "theirs",
	})
	ledger := &LedgerUpdate{Name: LedgerName, Location: "shared/" + LedgerName,
		Files: map[string][]byte{"shared/kops-file": []byte("x"), "shared/changed": []byte("y")}}
	require.NoError(t, ledger.RenderDirect(context.Background(), c, nil))
	task := &StaleFiles{Name: "both", Directories: []string{"addons/a"}, Keep: []string{"addons/a/new.yaml"},
		Ledger: "shared/" + LedgerName, Under: "shared/", Report: []string{"shared"}}

	change, err := task.Plan(context.Background(), c)
	require.NoError(t, err)
	assert.Equal(t, fi.ActionDelete, change.Action)
	assert.Equal(t, []fi.FieldChange{{Name: "a", Old: "addons/a/old.yaml"}, {Name: "shared", Old: "shared/kops-file"}}, change.Fields)
	assert.ElementsMatch(t, []string{"shared/changed", "shared/theirs"}, change.LeftAlone)

	require.NoError(t, task.RenderDirect(context.Background(), c, change))
	for loc, want := range map[string]bool{
		"addons/a/old.yaml": false, "addons/a/new.yaml": true,
		"shared/kops-file": false, "shared/changed": true, "shared/theirs": true,
	} {
		exists, err := c.ConfigBase.Join(loc).Exists()
		require.NoError(t, err)
		assert.Equal(t, want, exists, loc)
	}
	again, err := task.Plan(context.Background(), c)
	require.NoError(t, err)
	assert.Equal(t, fi.ActionNone, again.Action, "the ledger was settled to what is left")
}
