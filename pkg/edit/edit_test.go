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

package edit

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// scriptedEditor writes a shell script that replaces the edited file with each of steps in turn,
// recording what it was shown, and returns the editor command.
func scriptedEditor(t *testing.T, steps ...string) (command string, shown func() []string) {
	t.Helper()
	dir := t.TempDir()
	for i, s := range steps {
		require.NoError(t, os.WriteFile(filepath.Join(dir, "step"+string(rune('0'+i))), []byte(s), 0o644))
	}
	script := `#!/bin/sh
set -e
n=$(cat "` + dir + `/count" 2>/dev/null || echo 0)
cp "$1" "` + dir + `/shown$n"
if [ -f "` + dir + `/step$n" ]; then cp "` + dir + `/step$n" "$1"; fi
echo $((n+1)) > "` + dir + `/count"
`
	path := filepath.Join(dir, "editor.sh")
	require.NoError(t, os.WriteFile(path, []byte(script), 0o755))
	return path, func() []string {
		var out []string
		for i := 0; ; i++ {
			b, err := os.ReadFile(filepath.Join(dir, "shown"+string(rune('0'+i))))
			if err != nil {
				return out
			}
			out = append(out, string(b))
		}
	}
}

func mustBeValid(b []byte) error {
	if strings.Contains(string(b), "bad") {
		return errors.New("line 2: spec.x: Invalid value: \"bad\"\nline 3: spec.y: Required value")
	}
	return nil
}

func TestRun(t *testing.T) {
	original := "spec:\n  x: good\n"
	cases := []struct {
		name    string
		steps   []string
		want    string
		wantErr string
		shown   int
	}{
		{name: "valid change", steps: []string{"spec:\n  x: better\n"}, want: "spec:\n  x: better\n", shown: 1},
		{name: "header removed is fine", steps: []string{"# mine\nspec:\n  x: better\n"}, want: "spec:\n  x: better\n", shown: 1},
		{name: "no change", steps: []string{header + original}, wantErr: ErrCancelled.Error(), shown: 1},
		{name: "empty file", steps: []string{"# only comments\n\n"}, wantErr: "saved file was empty", shown: 1},
		{name: "error then fixed", steps: []string{"spec:\n  x: bad\n", "spec:\n  x: fixed\n"}, want: "spec:\n  x: fixed\n", shown: 2},
		{name: "same error twice", steps: []string{"spec:\n  x: bad\n", "# kept\nspec:\n  x: bad\n"}, wantErr: "no valid changes were saved", shown: 2},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			command, shown := scriptedEditor(t, tc.steps...)
			e := Editor{Command: command, In: &bytes.Buffer{}, Out: &bytes.Buffer{}, ErrOut: &bytes.Buffer{}, TempDir: t.TempDir()}
			got, err := e.Run("cluster.yaml", []byte(original), mustBeValid)
			if tc.wantErr != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tc.wantErr)
			} else {
				require.NoError(t, err)
				assert.Equal(t, tc.want, string(got))
			}
			views := shown()
			require.Len(t, views, tc.shown)
			assert.Equal(t, header+original, views[0], "the editor first sees the header and the document")
		})
	}
}

func TestRunReopensWithErrorsAndKeepsText(t *testing.T) {
	command, shown := scriptedEditor(t, "spec:\n  x: bad # my note\n", "spec:\n  x: fixed\n")
	e := Editor{Command: command, TempDir: t.TempDir()}
	_, err := e.Run("cluster.yaml", []byte("spec:\n  x: good\n"), mustBeValid)
	require.NoError(t, err)
	views := shown()
	require.Len(t, views, 2)
	assert.Equal(t, header+
		"# The edited file had errors:\n"+
		"# line 2: spec.x: Invalid value: \"bad\"\n"+
		"# line 3: spec.y: Required value\n"+
		"#\n"+
		"spec:\n  x: bad # my note\n", views[1])
}

func TestRunKeepsFileWhenGivingUp(t *testing.T) {
	command, _ := scriptedEditor(t, "bad\n", "bad\n")
	tmp := t.TempDir()
	e := Editor{Command: command, TempDir: tmp}
	_, err := e.Run("cluster.yaml", []byte("good\n"), mustBeValid)
	require.Error(t, err)
	matches, _ := filepath.Glob(filepath.Join(tmp, "kops-edit-*", "cluster.yaml"))
	require.Len(t, matches, 1, "the user's text survives")
	assert.Contains(t, err.Error(), matches[0])
}

func TestRunEditorFails(t *testing.T) {
	e := Editor{Command: "false", TempDir: t.TempDir()}
	_, err := e.Run("c.yaml", []byte("a\n"), mustBeValid)
	require.Error(t, err)
	assert.Contains(t, err.Error(), `running editor "false"`)

	_, err = Editor{Command: "  "}.Run("c.yaml", []byte("a\n"), mustBeValid)
	assert.ErrorContains(t, err, "set KOPS_EDITOR or EDITOR")
}

// TestEditorCommandLines: EDITOR is a command line when it has arguments or shell characters, and
// the file's path is passed as one word whatever it holds.
func TestEditorCommandLines(t *testing.T) {
	dir := filepath.Join(t.TempDir(), `it's "$(touch pwned)" ; x`)
	require.NoError(t, os.MkdirAll(dir, 0o755))
	clean := t.TempDir()
	script := filepath.Join(clean, "edit me.sh")
	// Records its arguments and edits the last one, the file.
	require.NoError(t, os.WriteFile(script, []byte("#!/bin/sh\nprintf '%s|' \"$@\" > \""+clean+"/args\"\nfor f; do :; done\nsed -i 's/good/better/' \"$f\"\n"), 0o755))
	cases := []struct {
		name, command, wantArgs string
	}{
		{"double-quoted program with an argument", `"` + script + `" --wait`, "--wait|"},
		{"single-quoted program with quoted argument", `'` + script + `' -c 'set x'`, "-c|set x|"},
		{"variable expanded by the shell", `EDITOR_ARG=-n; "` + script + `" $EDITOR_ARG`, "-n|"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := Editor{Command: tc.command, TempDir: dir}
			got, err := e.Run("cluster.yaml", []byte("x: good\n"), func([]byte) error { return nil })
			require.NoError(t, err)
			assert.Equal(t, "x: better\n", string(got))
			args, err := os.ReadFile(filepath.Join(clean, "args"))
			require.NoError(t, err)
			assert.True(t, strings.HasPrefix(string(args), tc.wantArgs), "%s", args)
			assert.Contains(t, string(args), dir+"/kops-edit-", "the path arrives as one argument")
			assert.NoFileExists(t, "pwned")
			assert.NoFileExists(t, filepath.Join(dir, "pwned"))
		})
	}
}

func TestKeep(t *testing.T) {
	dir := t.TempDir()
	path, err := Editor{TempDir: dir}.Keep("instancegroup-nodes.yaml", []byte("mine\n"))
	require.NoError(t, err)
	assert.Equal(t, dir, filepath.Dir(filepath.Dir(path)))
	assert.Equal(t, "instancegroup-nodes.yaml", filepath.Base(path))
	info, err := os.Stat(filepath.Dir(path))
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o700), info.Mode().Perm(), "a folder of the user's alone")
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, "mine\n", string(data))
}

// TestEditorReplacingTheFile: whatever the editor leaves in the file's place is read back as a
// bounded regular file inside the edit's temp folder, or refused at once with a clear error:
// never a hang on a FIFO, an endless read of /dev/zero, or a read of a file elsewhere.
func TestEditorReplacingTheFile(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("sh, mkfifo")
	}
	secret := filepath.Join(t.TempDir(), "secret")
	require.NoError(t, os.WriteFile(secret, []byte("x: stolen\n"), 0o600))
	cases := []struct {
		name   string
		script string
		want   string
	}{
		{"a FIFO", `rm "$1" && mkfifo "$1"`, "not a regular file (a FIFO)"},
		{"a link to /dev/zero", `ln -sf /dev/zero "$1"`, "it would leave its root folder"},
		{"a link to a file elsewhere", `ln -sf ` + secret + ` "$1"`, "it would leave its root folder"},
		{"a folder", `rm "$1" && mkdir "$1"`, "not a regular file (a directory)"},
		{"a file too large", `truncate -s 17M "$1"`, "more than the limit of 16 MiB"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			editor := filepath.Join(t.TempDir(), "editor.sh")
			require.NoError(t, os.WriteFile(editor, []byte("#!/bin/sh\n"+tc.script+"\n"), 0o755))
			done := make(chan error, 1)
			go func() {
				_, err := Editor{Command: editor, TempDir: t.TempDir()}.Run("cluster.yaml", []byte("x: good\n"), func([]byte) error { return nil })
				done <- err
			}()
			select {
			case err := <-done:
				require.Error(t, err)
				assert.Contains(t, err.Error(), "reading what the editor saved")
				assert.Contains(t, err.Error(), tc.want)
			case <-time.After(time.Minute): // a guard against a hang, not a speed check
				t.Fatal("the edit hung")
			}
		})
	}
}
