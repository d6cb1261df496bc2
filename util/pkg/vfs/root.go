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
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"strings"
)

// The local file layer: every operation of a local Path goes through an os.Root opened on the
// path's root (the directory the user named: --state, --out, a channel's folder, an edit's temp
// folder), so nothing outside the root is reached by ".." or by a symlink, whatever the tree holds
// and even if it changes during the operation. Reads follow symlinks that stay inside the root.
// Writes and deletes follow none: each folder on the way must be a real folder, so a link placed
// inside the root (a cluster's igconfig/ pointing at another cluster's) cannot redirect them either.

// ErrSymlink is returned, wrapped, when a write or delete would pass through a symlinked folder.
var ErrSymlink = errors.New("a symlink: kops does not write or delete through links")

// ErrNotFolder is returned, wrapped, when a write or delete would pass through something that is
// neither a folder nor a symlink (a file where the layout has a folder).
var ErrNotFolder = errors.New("not a folder")

// escapesRoot says whether err is os.Root's refusal of a name or link that leads outside it. Its
// error value is not exported, so the text is matched; a test pins it.
func escapesRoot(err error) bool {
	var pe *fs.PathError
	return errors.As(err, &pe) && pe.Err != nil && pe.Err.Error() == "path escapes from parent"
}

// local is what an fsPath operation works with: the opened root and the path's parts in it.
type local struct {
	p    fsPath
	root *os.Root
}

// open opens the path's root; create makes it first (with its parents) when it is missing: a new
// state store or --out folder is made by its first write.
func (p fsPath) open(create bool) (*local, error) {
	if create {
		if err := os.MkdirAll(p.root, 0o755); err != nil {
			return nil, err
		}
	}
	r, err := os.OpenRoot(p.root)
	if err != nil {
		return nil, err
	}
	return &local{p: p, root: r}, nil
}

func (l *local) Close() { _ = l.root.Close() }

// fail turns an error of an operation on rel into one naming the whole path; a refused escape is
// ErrOutsideBase.
func (l *local) fail(op, rel string, err error) error {
	full := fsPath{root: l.p.root, rel: rel}.String()
	if escapesRoot(err) {
		return &fs.PathError{Op: op, Path: full, Err: fmt.Errorf("a symlink (or ..) on the way: %w %s", ErrOutsideBase, fsPath{root: l.p.root})}
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return &fs.PathError{Op: op, Path: full, Err: pe.Err}
	}
	return &fs.PathError{Op: op, Path: full, Err: err}
}

// folder opens the folder dir (relative to the root, "" for the root itself) for a write or a
// delete, following no symlink: each part of dir must be a real folder, and is created (0755)
// when create is set. Each part is opened as a Root of its own after its Lstat, and the two must
// be the same folder, so a folder swapped for a link between the check and the open is noticed;
// even then os.Root keeps the open inside the root. The caller closes the result.
func (l *local) folder(dir string, create bool) (*os.Root, error) {
	cur, err := l.root.OpenRoot(".")
	if err != nil {
		return nil, err
	}
	if dir == "" {
		return cur, nil
	}
	done := ""
	for _, part := range strings.Split(dir, "/") {
		done = path.Join(done, part)
		next, err := l.step(cur, part, done, create)
		_ = cur.Close()
		if err != nil {
			return nil, err
		}
		cur = next
	}
	return cur, nil
}

// step opens the folder part of cur (whose path below the root is rel).
func (l *local) step(cur *os.Root, part, rel string, create bool) (*os.Root, error) {
	info, err := cur.Lstat(part)
	if errors.Is(err, fs.ErrNotExist) && create {
		if err := cur.Mkdir(part, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
			return nil, l.fail("mkdir", rel, err)
		}
		info, err = cur.Lstat(part)
	}
	if err != nil {
		return nil, l.fail("lstat", rel, err)
	}
	switch {
	case info.Mode()&fs.ModeSymlink != 0:
		return nil, l.fail("open", rel, ErrSymlink)
	case !info.IsDir():
		return nil, l.fail("open", rel, fmt.Errorf("%w (%s)", ErrNotFolder, describeMode(info.Mode())))
	}
	next, err := cur.OpenRoot(part)
	if err != nil {
		return nil, l.fail("open", rel, err)
	}
	opened, err := next.Stat(".")
	if err != nil || !os.SameFile(info, opened) {
		_ = next.Close()
		return nil, l.fail("open", rel, errors.New("the folder changed while it was opened"))
	}
	return next, nil
}

// split is a relative path's folder and last part ("" and rel for a name at the root).
func split(rel string) (dir, name string) {
	i := strings.LastIndexByte(rel, '/')
	if i < 0 {
		return "", rel
	}
	return rel[:i], rel[i+1:]
}
