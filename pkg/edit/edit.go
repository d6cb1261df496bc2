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
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"

	"k8s.io/kops/util/pkg/vfs"
)

var ErrCancelled = errors.New("Edit cancelled, no changes made.") //nolint:staticcheck // ST1005: kops's own words, printed as they are

type Editor struct {
	// Command is the editor command line ("vi", "code --wait"); shell syntax is run by sh -c, as
	// kubectl does, with the path quoted.
	Command string
	In      io.Reader
	Out     io.Writer
	ErrOut  io.Writer
	// TempDir is where the file being edited lives; empty means the system default.
	TempDir string
}

const header = `# Please edit the object below. Lines beginning with '#' at the top will be ignored,
# and an empty file will abort the edit. If an error occurs while saving, this file will be
# reopened with the relevant failures.
#
`

// Run returns the edited text once check accepts it; check must be pure, since it is rerun on the
// shifted text (see recheck). It returns ErrCancelled when nothing changed, and an error naming the
// kept file when the same invalid text is saved twice.
func (e Editor) Run(name string, original []byte, check func([]byte) error) ([]byte, error) {
	if strings.TrimSpace(e.Command) == "" {
		return nil, errors.New("no editor command: set KOPS_EDITOR or EDITOR")
	}
	dir, err := os.MkdirTemp(e.TempDir, "kops-edit-") // 0700: the text is the user's alone
	if err != nil {
		return nil, err
	}
	// The editor may replace the file with anything (a FIFO, a link to /dev/zero): read it back through
	// the file layer as a bounded regular file.
	file := vfs.LocalRoot(dir).Join(filepath.Base(name))
	path := filepath.Join(dir, filepath.Base(name))
	keep := false
	defer func() {
		if !keep {
			_ = os.RemoveAll(dir)
		}
	}()

	content := append([]byte(header), original...)
	var lastFailed []byte
	for {
		if err := file.WriteFile(content); err != nil {
			return nil, err
		}
		if err := e.launch(path); err != nil {
			return nil, err
		}
		saved, err := file.ReadFile()
		if err != nil {
			return nil, fmt.Errorf("reading what the editor saved: %w", err)
		}
		edited := stripLeadingComments(saved)
		switch {
		case len(bytes.TrimSpace(edited)) == 0:
			return nil, errors.New("Edit cancelled, saved file was empty.") //nolint:staticcheck // ST1005: kops's own words, printed as they are
		case bytes.Equal(edited, stripLeadingComments(append([]byte(header), original...))):
			return nil, ErrCancelled
		case lastFailed != nil && bytes.Equal(edited, lastFailed):
			keep = true
			return nil, fmt.Errorf("Edit cancelled, no valid changes were saved; your changes are kept in %s", path) //nolint:staticcheck // ST1005: kops's own words, printed as they are
		}
		reopened, ok := recheck(edited, check)
		if ok {
			return edited, nil
		}
		lastFailed = edited
		content = reopened
	}
}

// recheck runs check on the text shifted down by the reopened file's header, so error line numbers
// match what the user will see.
func recheck(edited []byte, check func([]byte) error) (reopened []byte, ok bool) {
	above := strings.Count(header, "\n") + 2
	err := check(edited)
	if err == nil {
		return nil, true
	}
	offset := above + strings.Count(strings.TrimRight(err.Error(), "\n"), "\n") + 1
	if padded := check(append(bytes.Repeat([]byte("\n"), offset), edited...)); padded != nil {
		err = padded
	}
	return withErrors(err, edited), false
}

const shellChars = " \t\n'\"\\$`;&|<>()*?[]{}~#!"

// editorCommand runs path directly for a plain program name, else via sh -c with path single-quoted.
func editorCommand(command, path string) *exec.Cmd {
	if !strings.ContainsAny(command, shellChars) || runtime.GOOS == "windows" {
		args := strings.Fields(command)
		return exec.Command(args[0], append(args[1:], path)...)
	}
	return exec.Command("sh", "-c", command+" "+shellQuote(path))
}

func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// Keep saves text that could not be stored in a new private temp folder and returns its path.
func (e Editor) Keep(name string, text []byte) (string, error) {
	dir, err := os.MkdirTemp(e.TempDir, "kops-edit-")
	if err != nil {
		return "", err
	}
	if err := vfs.LocalRoot(dir).Join(filepath.Base(name)).WriteFile(text); err != nil {
		return "", err
	}
	return filepath.Join(dir, filepath.Base(name)), nil
}

func (e Editor) launch(path string) error {
	cmd := editorCommand(e.Command, path)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = e.In, e.Out, e.ErrOut
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("running editor %q: %w", e.Command, err)
	}
	return nil
}

func withErrors(err error, text []byte) []byte {
	var b bytes.Buffer
	b.WriteString(header)
	b.WriteString("# The edited file had errors:\n")
	for _, line := range strings.Split(strings.TrimRight(err.Error(), "\n"), "\n") {
		b.WriteString("# " + line + "\n")
	}
	b.WriteString("#\n")
	b.Write(text)
	return b.Bytes()
}

// stripLeadingComments drops the header and error lines; comments further down are the user's.
func stripLeadingComments(b []byte) []byte {
	for len(b) > 0 && b[0] == '#' {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			return nil
		}
		b = b[i+1:]
	}
	return b
}
