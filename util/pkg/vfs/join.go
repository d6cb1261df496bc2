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

// ErrOutsideBase is returned, wrapped, by every operation on a path that Join refused because it
// would not lie strictly below the path it was joined to.
var ErrOutsideBase = errors.New("it would leave its root folder")

// joinRel turns Join's elements into a clean relative path, "/"-separated, that lies strictly
// below the base: never the base itself, never above it, never absolute. Checking the result
// rather than the elements makes "a/../../x" as impossible as "../x". The error names the base
// through base(), called only on a refusal: Join is on every path's way.
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

// badPath is what Join returns for a refused join: every operation fails with the reason, so a
// caller that forgot to check a name still cannot touch anything outside the base.
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

// JoinBelow is Join's rule for the Path kinds of other packages (s3store): the clean,
// "/"-separated path that elems name strictly below base, or, when they name no such path, the
// Path on which every operation fails with ErrOutsideBase, which Join returns then.
func JoinBelow(base Path, elems []string) (rel string, refusedPath Path) {
	rel, err := joinRel(base.String, elems)
	if err != nil {
		return "", refused(base.String(), elems, err)
	}
	return rel, nil
}
