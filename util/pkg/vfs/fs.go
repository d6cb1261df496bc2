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

package vfs

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"time"
)

// tempInfix marks in-flight atomic writes; ReadDir hides them, so a crash's leftover never shows as
// state, and a later write removes it once stale.
const tempInfix = ".vfs-tmp-"

// LockSuffix ends lock file names; they are hidden but never swept: removing a held lock would let a
// second holder in.
const LockSuffix = ".vfs-lock"

const separatorIsBackslash = os.PathSeparator == '\\'

// fsPath is rel ("/"-separated, clean) below root, the folder every operation is confined to (root.go).
type fsPath struct {
	root string
	rel  string
}

func localPath(dir string) fsPath { return fsPath{root: filepath.Clean(dir)} }

// LocalRoot is dir as the root of its own tree, for folders kops makes itself; user paths go
// through ParsePath.
func LocalRoot(dir string) Path { return localPath(dir) }

func (p fsPath) Join(elems ...string) Path {
	if len(elems) == 0 {
		return p
	}
	rel, err := joinRel(p.String, elems)
	if err != nil {
		return refused(p.String(), elems, err)
	}
	return fsPath{root: p.root, rel: path.Join(p.rel, rel)}
}

// Dir above the root is the root's parent as a new root: going up is explicit, never by a name.
func (p fsPath) Dir() Path {
	if p.rel == "" {
		return localPath(filepath.Dir(p.root))
	}
	dir, _ := split(p.rel)
	return fsPath{root: p.root, rel: dir}
}

func (p fsPath) Base() string {
	if p.rel == "" {
		return filepath.Base(p.root)
	}
	_, name := split(p.rel)
	return name
}

func (p fsPath) path() string { return filepath.Join(p.root, filepath.FromSlash(p.rel)) }

func (p fsPath) String() string { return "file://" + filepath.ToSlash(p.path()) }

// ReadFile reads a regular file of at most MaxFileSize, following symlinks only inside the root.
func (p fsPath) ReadFile() ([]byte, error) {
	if p.rel == "" {
		return readLocal(p.root, p.String(), false)
	}
	l, err := p.open(false)
	if err != nil {
		return nil, err
	}
	defer l.Close()
	f, err := l.root.OpenFile(p.rel, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, l.fail("open", p.rel, err)
	}
	defer func() { _ = f.Close() }()
	return readRegular(f, p.String(), false)
}

// WriteFile replaces the file atomically; no folder on the way may be a symlink, and a symlink at the
// file's place is replaced, not written through.
func (p fsPath) WriteFile(data []byte) error {
	if p.rel == "" {
		return fmt.Errorf("writing %s: a root folder is not a file", p)
	}
	l, err := p.open(true)
	if err != nil {
		return err
	}
	defer l.Close()
	dir, name := split(p.rel)
	d, err := l.folder(dir, true)
	if err != nil {
		return fmt.Errorf("writing %s: %w", p, err)
	}
	defer func() { _ = d.Close() }()
	if err := writeAtomic(d, name, bytes.NewReader(data)); err != nil {
		return fmt.Errorf("writing %s: %w", p, err)
	}
	return nil
}

func (p fsPath) CheckWritable() error {
	if p.rel == "" {
		return fmt.Errorf("writing %s: a root folder is not a file", p)
	}
	l, err := p.open(false)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	defer l.Close()
	dir, _ := split(p.rel)
	d, err := l.folder(dir, false)
	if errors.Is(err, fs.ErrNotExist) && !errors.Is(err, ErrSymlink) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("writing %s: %w", p, err)
	}
	return d.Close()
}

func (p fsPath) Remove() error {
	return p.inFolder("remove", func(d *os.Root, name string) error { return d.Remove(name) })
}

func (p fsPath) RemoveAll() error {
	err := p.inFolder("removeall", func(d *os.Root, name string) error { return d.RemoveAll(name) })
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return err
}

func (p fsPath) inFolder(what string, op func(d *os.Root, name string) error) error {
	if p.rel == "" {
		return &fs.PathError{Op: what, Path: p.String(), Err: errors.New("a root folder is not removed through its own path")}
	}
	l, err := p.open(false)
	if err != nil {
		return err
	}
	defer l.Close()
	dir, name := split(p.rel)
	d, err := l.folder(dir, false)
	if err != nil {
		return err
	}
	defer func() { _ = d.Close() }()
	if err := op(d, name); err != nil {
		return l.fail(what, p.rel, err)
	}
	return nil
}

func (p fsPath) RemoveDir() error {
	return p.inFolder("removedir", func(parent *os.Root, name string) error {
		l := &local{p: p, root: parent}
		d, err := l.folder(name, false)
		if err != nil {
			return err
		}
		defer func() { _ = d.Close() }()
		names, err := entries(d)
		if err != nil {
			return err
		}
		for _, n := range names {
			if !isTempName(n.Name()) {
				return syscall.ENOTEMPTY
			}
		}
		for _, n := range names {
			if err := d.Remove(n.Name()); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return err
			}
		}
		return parent.Remove(name)
	})
}

func entries(d *os.Root) ([]fs.DirEntry, error) {
	f, err := d.Open(".")
	if err != nil {
		return nil, err
	}
	defer func() { _ = f.Close() }()
	list, err := f.ReadDir(-1)
	slices.SortFunc(list, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return list, err
}

func (p fsPath) ReadDir() ([]Path, error) {
	l, err := p.open(false)
	if err != nil {
		return nil, err
	}
	defer l.Close()
	d := l.root
	if p.rel != "" {
		if d, err = l.root.OpenRoot(p.rel); err != nil {
			return nil, l.fail("readdir", p.rel, err)
		}
		defer func() { _ = d.Close() }()
	}
	list, err := entries(d)
	if err != nil {
		return nil, l.fail("readdir", p.rel, err)
	}
	children := make([]Path, 0, len(list))
	for _, e := range list {
		if isTempName(e.Name()) || isLockName(e.Name()) {
			continue
		}
		children = append(children, fsPath{root: p.root, rel: path.Join(p.rel, e.Name())})
	}
	return children, nil
}

func (p fsPath) Exists() (bool, error) {
	_, err := p.stat(false)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	return err == nil, err
}

func (p fsPath) IsDir() (bool, error) {
	info, err := p.stat(true)
	if err != nil {
		return false, err
	}
	return info.IsDir(), nil
}

func (p fsPath) stat(lstat bool) (fs.FileInfo, error) {
	if p.rel == "" {
		if lstat {
			return os.Lstat(p.root)
		}
		return os.Stat(p.root)
	}
	l, err := p.open(false)
	if err != nil {
		return nil, err
	}
	defer l.Close()
	stat := l.root.Stat
	if lstat {
		stat = l.root.Lstat
	}
	info, err := stat(p.rel)
	if err != nil {
		return nil, l.fail("stat", p.rel, err)
	}
	return info, nil
}

func isTempName(name string) bool {
	return strings.HasPrefix(name, ".") && strings.Contains(name, tempInfix)
}

func isLockName(name string) bool {
	return strings.HasPrefix(name, ".") && strings.HasSuffix(name, LockSuffix)
}

func Hidden(name string) bool { return isTempName(name) || isLockName(name) }

// writeAtomic writes a fsynced temp file in d and renames it over name, so readers and crashes see the
// old file or the complete new one. Stale temps of killed writers are swept first.
func writeAtomic(d *os.Root, name string, r io.Reader) error {
	sweepStaleTemps(d, time.Now())
	tmp, tmpName, err := createTemp(d, name)
	if err != nil {
		return err
	}
	if err := fillAndRename(d, tmp, tmpName, name, r); err != nil {
		_ = tmp.Close() // may already be closed; the first error is the one to report
		_ = d.Remove(tmpName)
		return err
	}
	// Syncing the folder makes the rename durable.
	return syncFolder(d)
}

func createTemp(d *os.Root, name string) (*os.File, string, error) {
	for range 10 {
		var b [6]byte
		_, _ = rand.Read(b[:])
		tmpName := "." + name + tempInfix + hex.EncodeToString(b[:])
		f, err := d.OpenFile(tmpName, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		return f, tmpName, err
	}
	return nil, "", fmt.Errorf("no free temp file name for %s", name)
}

// sweepStaleTemps is best effort: a temp left behind is hidden by ReadDir anyway.
func sweepStaleTemps(d *os.Root, now time.Time) {
	list, err := entries(d)
	if err != nil {
		return
	}
	for _, e := range list {
		if !isTempName(e.Name()) || !e.Type().IsRegular() {
			continue
		}
		if info, err := e.Info(); err == nil && now.Sub(info.ModTime()) > staleTempAge {
			_ = d.Remove(e.Name())
		}
	}
}

func fillAndRename(d *os.Root, tmp *os.File, tmpName, name string, r io.Reader) error {
	if _, err := io.Copy(tmp, r); err != nil {
		return err
	}
	// Not the umask: state files must be readable whoever ran the previous write.
	if err := tmp.Chmod(0o644); err != nil {
		return err
	}
	if err := tmp.Sync(); err != nil {
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return d.Rename(tmpName, name)
}

func syncFolder(d *os.Root) error {
	if runtime.GOOS == "windows" {
		return nil // directories cannot be opened for sync on Windows
	}
	f, err := d.Open(".")
	if err != nil {
		return err
	}
	defer func() { _ = f.Close() }()
	return f.Sync()
}
