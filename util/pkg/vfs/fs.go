package vfs

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
)

// tempInfix marks in-flight atomic writes. ReadDir hides such files so a temp
// file left by a crash (power loss between create and rename) never shows up
// as state.
const tempInfix = ".vfs-tmp-"

// fsPath is a Path on the local filesystem; path is absolute and clean.
type fsPath struct{ path string }

func (p fsPath) Join(elems ...string) Path {
	return fsPath{path: filepath.Join(append([]string{p.path}, elems...)...)}
}

func (p fsPath) Base() string { return filepath.Base(p.path) }

// String is a file:// URL, the form kops writes into configBase.
func (p fsPath) String() string { return "file://" + filepath.ToSlash(p.path) }

func (p fsPath) ReadFile() ([]byte, error) { return os.ReadFile(p.path) }

func (p fsPath) WriteFile(data []byte) error {
	return writeFileAtomic(p.path, bytes.NewReader(data))
}

func (p fsPath) Remove() error    { return os.Remove(p.path) }
func (p fsPath) RemoveAll() error { return os.RemoveAll(p.path) }

func (p fsPath) ReadDir() ([]Path, error) {
	entries, err := os.ReadDir(p.path) // sorted by name
	if err != nil {
		return nil, err
	}
	children := make([]Path, 0, len(entries))
	for _, e := range entries {
		if isTempName(e.Name()) {
			continue
		}
		children = append(children, p.Join(e.Name()))
	}
	return children, nil
}

func (p fsPath) Exists() (bool, error) {
	_, err := os.Stat(p.path)
	if os.IsNotExist(err) {
		return false, nil
	}
	return err == nil, err
}

func isTempName(name string) bool {
	return strings.HasPrefix(name, ".") && strings.Contains(name, tempInfix)
}

// writeFileAtomic replaces name with the content of r so that readers (and a
// crash at any point) see either the old file or the complete new one: the
// data goes to a temp file in the same directory, is fsynced, and is then
// renamed over name. Until the rename, any failure removes the temp file and
// leaves name untouched. The result has mode 0644; created directories 0755.
func writeFileAtomic(name string, r io.Reader) error {
	dir := filepath.Dir(name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(name)+tempInfix+"*")
	if err != nil {
		return err
	}
	if err := fillAndRename(tmp, name, r); err != nil {
		tmp.Close() // may already be closed; the first error is the one to report
		os.Remove(tmp.Name())
		return fmt.Errorf("writing %s: %w", name, err)
	}
	// The new content is in place; syncing the directory makes the rename
	// itself durable.
	return syncDir(dir)
}

func fillAndRename(tmp *os.File, name string, r io.Reader) error {
	if _, err := io.Copy(tmp, r); err != nil {
		return err
	}
	// Chmod rather than relying on the umask: state files must be readable
	// regardless of who ran the previous write.
	if err := tmp.Chmod(0o644); err != nil {
		return err
	}
	if err := tmp.Sync(); err != nil {
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), name)
}

func syncDir(dir string) error {
	if runtime.GOOS == "windows" {
		return nil // directories cannot be opened for sync on Windows
	}
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}
