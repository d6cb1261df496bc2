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

// Every local operation goes through an os.Root opened on the path's root, so ".." and symlinks cannot
// leave it even if the tree changes meanwhile. Reads follow links inside the root; writes and deletes
// follow none, so a link inside the root (one cluster's igconfig/ to another's) cannot redirect them.

var ErrSymlink = errors.New("a symlink: kops does not write or delete through links")

var ErrNotFolder = errors.New("not a folder")

// os.Root's escape error is unexported, so its text is matched; a test pins it.
func escapesRoot(err error) bool {
	var pe *fs.PathError
	return errors.As(err, &pe) && pe.Err != nil && pe.Err.Error() == "path escapes from parent"
}

type local struct {
	p    fsPath
	root *os.Root
}

// open creates a missing root when create is set: a new store or --out folder is made by its first write.
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

// folder opens dir for a write or delete following no symlink: each part is Lstat'ed, then opened as
// a Root and compared, so a folder swapped for a link meanwhile is noticed. The caller closes it.
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

func split(rel string) (dir, name string) {
	i := strings.LastIndexByte(rel, '/')
	if i < 0 {
		return "", rel
	}
	return rel[:i], rel[i+1:]
}
