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

package nodecluster

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The state folder behind a symlink (a worktree's _output linking to a shared one): the kernel
// names the namespace file's mount by the real path, so Down must too, or it never unmounts it.
func TestCanonicalDir(t *testing.T) {
	base, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	real := filepath.Join(base, "real")
	require.NoError(t, os.Mkdir(real, 0o755))
	require.NoError(t, os.Symlink(real, filepath.Join(base, "link")))

	cases := []struct {
		name, in, want string
	}{
		{"a real folder", real, real},
		{"through a symlink", filepath.Join(base, "link"), real},
		{"below a symlink", filepath.Join(base, "link", "."), real},
		{"not made yet: only absolute", filepath.Join(base, "later"), filepath.Join(base, "later")},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := canonicalDir(tc.in)
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
}

// A recorded PID is signalled only while it is the process that was started: a PID the kernel
// gave to another process since must not be.
func TestProcessAlive(t *testing.T) {
	self, ok := startTime(os.Getpid())
	require.True(t, ok)
	cmd := exec.Command("true")
	require.NoError(t, cmd.Run())

	cases := []struct {
		name string
		p    process
		want bool
	}{
		{"this process", process{PID: os.Getpid(), StartTime: self}, true},
		{"this PID, started at another time", process{PID: os.Getpid(), StartTime: self + 1}, false},
		{"a process that exited", process{PID: cmd.ProcessState.Pid(), StartTime: self}, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) { assert.Equal(t, tc.want, tc.p.alive()) })
	}
}

// Preflight names what is missing and what to run; it needs root to get that far.
func TestPreflightNamesWhatIsMissing(t *testing.T) {
	empty := t.TempDir()
	cases := []struct {
		name     string
		opts     Options
		contains []string
	}{
		{"no binaries", Options{StateDir: t.TempDir(), NodeBinDir: empty, APIServerBinDir: empty},
			[]string{"not found in " + empty, "hack/build-test-node.sh"}},
		{"a state folder too deep for containerd's socket", Options{StateDir: "/" + strings.Repeat("d", 100), NodeBinDir: empty, APIServerBinDir: empty},
			[]string{"too deep", "107"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := Preflight(tc.opts)
			var unsupported *UnsupportedError
			if errors.As(err, &unsupported) {
				t.Skip(err.Error())
			}
			require.Error(t, err)
			for _, want := range tc.contains {
				assert.Contains(t, err.Error(), want)
			}
		})
	}
}
