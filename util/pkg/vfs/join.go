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
	"path"
	"strings"
)

var ErrOutsideBase = errors.New("it would leave its root folder")

// joinRel returns a clean relative path strictly below the base. The result is checked, not the
// elements, so "a/../../x" is as impossible as "../x"; base() is only called on refusal.
func joinRel(base func() string, elems []string) (string, error) {
	joined := strings.Join(elems, "/")
	rel := path.Clean(joined)
	switch {
	case strings.HasPrefix(joined, "/"):
		return "", fmt.Errorf("joining %q to %s: an absolute path: %w", joined, base(), ErrOutsideBase)
	case strings.ContainsRune(joined, '\\') && separatorIsBackslash:
		return "", fmt.Errorf("joining %q to %s: a backslash: %w", joined, base(), ErrOutsideBase)
	case rel == ".":
		return "", fmt.Errorf("joining %q to %s: names the base itself: %w", joined, base(), ErrOutsideBase)
	case rel == ".." || strings.HasPrefix(rel, "../"):
		return "", fmt.Errorf("joining %q to %s: %w", joined, base(), ErrOutsideBase)
	}
	return rel, nil
}

// badPath fails every operation, so a caller that forgot to check a name still cannot escape.
type badPath struct {
	name string
	err  error
}

func (p badPath) Join(...string) Path       { return p }
func (p badPath) Dir() Path                 { return p }
func (p badPath) Base() string              { return path.Base(p.name) }
func (p badPath) String() string            { return p.name }
func (p badPath) fail(op string) error      { return &fs.PathError{Op: op, Path: p.name, Err: p.err} }
func (p badPath) ReadFile() ([]byte, error) { return nil, p.fail("read") }
func (p badPath) WriteFile([]byte) error    { return p.fail("write") }
func (p badPath) CheckWritable() error      { return p.fail("write") }
func (p badPath) Remove() error             { return p.fail("remove") }
func (p badPath) RemoveAll() error          { return p.fail("removeall") }
func (p badPath) RemoveDir() error          { return p.fail("removedir") }
func (p badPath) ReadDir() ([]Path, error)  { return nil, p.fail("readdir") }
func (p badPath) Exists() (bool, error)     { return false, p.fail("stat") }
func (p badPath) IsDir() (bool, error)      { return false, p.fail("stat") }
func (p badPath) Lock() (func(), error)     { return nil, p.fail("lock") }

func refused(base string, elems []string, err error) badPath {
	return badPath{name: base + "/" + strings.Join(elems, "/"), err: err}
}

// JoinBelow is Join's rule for other packages' Path kinds (s3store).
func JoinBelow(base Path, elems []string) (rel string, refusedPath Path) {
	rel, err := joinRel(base.String, elems)
	if err != nil {
		return "", refused(base.String(), elems, err)
	}
	return rel, nil
}
