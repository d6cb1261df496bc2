package vfs

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"time"
)

// tempInfix marks in-flight atomic writes. ReadDir hides such files so a temp
// file left by a crash (power loss between create and rename) never shows up
// as state; the next write to the directory removes it once it is stale.
const tempInfix = ".vfs-tmp-"

// LockSuffix ends the names of lock files (see Path.Lock); ReadDir hides them like temp files,
// but they are never swept: removing a held lock file would let a second holder in.
const LockSuffix = ".vfs-lock"

const separatorIsBackslash = os.PathSeparator == '\\'

// fsPath is a Path on the local filesystem; path is absolute and clean.
type fsPath struct{ path string }

// Join appends elems; a result that would not lie strictly below p is refused (see joinRel).
func (p fsPath) Join(elems ...string) Path {
	if len(elems) == 0 {
		return p
	}
	rel, err := joinRel(p.String(), elems)
	if err != nil {
		return refused(p.String(), elems, err)
	}
	return fsPath{path: filepath.Join(p.path, filepath.FromSlash(rel))}
}

func (p fsPath) Dir() Path { return fsPath{path: filepath.Dir(p.path)} }

func (p fsPath) Base() string { return filepath.Base(p.path) }

// String is a file:// URL, the form kops writes into configBase.
func (p fsPath) String() string { return "file://" + filepath.ToSlash(p.path) }

// ReadFile reads a regular file of at most MaxFileSize bytes. The file is opened without
// blocking, so a FIFO is refused instead of hanging the reader, and checked on the open
// descriptor, so what is checked is what is read.
func (p fsPath) ReadFile() ([]byte, error) {
	f, err := os.OpenFile(p.path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: %w (%s)", p, ErrNotRegular, describeMode(info.Mode()))
	}
	if info.Size() > MaxFileSize {
		return nil, tooLarge(p.String(), info.Size())
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxFileSize+1))
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", p, err)
	}
	if len(data) > MaxFileSize {
		return nil, tooLarge(p.String(), int64(len(data))) // it grew while being read
	}
	return data, nil
}

func describeMode(m os.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&os.ModeNamedPipe != 0:
		return "a FIFO"
	case m&os.ModeDevice != 0:
		return "a device"
	case m&os.ModeSocket != 0:
		return "a socket"
	}
	return "mode " + m.String()
}

func (p fsPath) WriteFile(data []byte) error {
	return writeFileAtomic(p.path, bytes.NewReader(data))
}

func (p fsPath) Remove() error    { return os.Remove(p.path) }
func (p fsPath) RemoveAll() error { return os.RemoveAll(p.path) }

// RemoveDir removes a directory that holds nothing but leftover temp files, removing those too.
func (p fsPath) RemoveDir() error {
	entries, err := os.ReadDir(p.path)
	if err != nil {
		return err
	}
	var temps []string
	for _, e := range entries {
		if !isTempName(e.Name()) {
			return &os.PathError{Op: "removedir", Path: p.path, Err: syscall.ENOTEMPTY}
		}
		temps = append(temps, filepath.Join(p.path, e.Name()))
	}
	for _, t := range temps {
		if err := os.Remove(t); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
	}
	return os.Remove(p.path)
}

func (p fsPath) ReadDir() ([]Path, error) {
	entries, err := os.ReadDir(p.path) // sorted by name
	if err != nil {
		return nil, err
	}
	children := make([]Path, 0, len(entries))
	for _, e := range entries {
		if isTempName(e.Name()) || isLockName(e.Name()) {
			continue
		}
		children = append(children, fsPath{path: filepath.Join(p.path, e.Name())})
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

func (p fsPath) IsDir() (bool, error) {
	info, err := os.Lstat(p.path)
	if err != nil {
		return false, err
	}
	return info.IsDir(), nil
}

func isTempName(name string) bool {
	return strings.HasPrefix(name, ".") && strings.Contains(name, tempInfix)
}

func isLockName(name string) bool {
	return strings.HasPrefix(name, ".") && strings.HasSuffix(name, LockSuffix)
}

// writeFileAtomic replaces name with the content of r so that readers (and a
// crash at any point) see either the old file or the complete new one: the
// data goes to a temp file in the same directory, is fsynced, and is then
// renamed over name. Until the rename, any failure removes the temp file and
// leaves name untouched. The result has mode 0644; created directories 0755.
// Temp files that a killed writer left in the directory are swept first.
func writeFileAtomic(name string, r io.Reader) error {
	dir := filepath.Dir(name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	sweepStaleTemps(dir, time.Now())
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

// sweepStaleTemps removes temp files older than staleTempAge. It is best effort: a temp file
// that cannot be removed is hidden by ReadDir anyway and does not fail the write.
func sweepStaleTemps(dir string, now time.Time) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		if !isTempName(e.Name()) || !e.Type().IsRegular() {
			continue
		}
		if info, err := e.Info(); err == nil && now.Sub(info.ModTime()) > staleTempAge {
			_ = os.Remove(filepath.Join(dir, e.Name()))
		}
	}
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
