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
	"path/filepath"
	"strings"
)

// Path is a location in a state store. Implementations report missing files
// and directories with errors that satisfy errors.Is(err, fs.ErrNotExist).
type Path interface {
	// Join returns the path with elems appended; elems may contain "/". The result must lie
	// strictly below the receiver: a join that is absolute, names the receiver itself or climbs
	// above it (after cleaning "a/../../x" too) returns a path on which every operation fails
	// with ErrOutsideBase, so a name that was never validated still cannot reach outside.
	Join(elems ...string) Path
	// Dir returns the parent directory, the one explicit way up.
	Dir() Path
	// Base returns the last element of the path.
	Base() string
	// String returns a form that ParsePath accepts and maps back to this path.
	String() string
	// ReadFile reads a regular file (following symlinks) of at most MaxFileSize bytes; anything
	// else fails with ErrNotRegular or ErrTooLarge, and a FIFO does not block.
	ReadFile() ([]byte, error)
	// WriteFile replaces the file's content, creating parent directories. A
	// failed write leaves any previous content in place.
	WriteFile(data []byte) error
	// CheckWritable says why WriteFile (or Remove) would be refused by what lies on the way (a
	// folder that is a symlink, or a file), without writing anything; folders not made yet are
	// fine. Planners call it so that a refusal comes before the first write of a run.
	CheckWritable() error
	// Remove deletes a file or an empty directory.
	Remove() error
	// RemoveDir deletes a directory that holds nothing but temp files left by killed writes.
	RemoveDir() error
	// RemoveAll deletes the path and everything below it; a missing path is
	// not an error.
	RemoveAll() error
	// ReadDir returns the immediate children (files and directories), sorted
	// by name.
	ReadDir() ([]Path, error)
	Exists() (bool, error)
	// IsDir says whether the path is a directory, not following a final symlink, so a walk that
	// deletes files never follows one out of the store. A missing path is ErrNotExist.
	IsDir() (bool, error)
	// Lock takes an exclusive lock named by this path (a lock file on disk), waiting for it, and
	// returns the function that releases it. A process that dies releases its locks. A name that
	// starts with "." and ends with LockSuffix keeps the lock file out of ReadDir.
	Lock() (unlock func(), err error)
}

// ParsePath turns a --state value into a Path. Accepted forms are
// file:///abs/path, a plain absolute or relative directory (made absolute),
// and memfs://name/... which resolves inside mem; s3://bucket/prefix resolves only through a
// Context made WithS3, which carries the settings the cmd edge read. mem may be nil when no
// in-memory store is wanted; memfs:// is then rejected. Production code parses through a Context
// (its clientset's) rather than passing a MemFS along.
func ParsePath(s string, mem *MemFS) (Path, error) { return parsePath(s, mem, nil) }

// parsePath is ParsePath with s3:// URLs resolved through store (nil refuses them).
func parsePath(s string, mem *MemFS, store S3) (Path, error) {
	if s == "" {
		return nil, errors.New("no state store given: set --state or KOPS_STATE_STORE")
	}
	scheme, rest, ok := strings.Cut(s, "://")
	if !ok || !isScheme(scheme) {
		abs, err := filepath.Abs(s)
		if err != nil {
			return nil, fmt.Errorf("state store %q: %w", s, err)
		}
		return localPath(abs), nil
	}
	switch strings.ToLower(scheme) {
	case "file":
		if !strings.HasPrefix(rest, "/") {
			return nil, fmt.Errorf("state store %q: file URLs need an absolute path, e.g. file:///srv/kops-state", s)
		}
		// A file URL is a path: a query or fragment would silently become part of a folder name.
		if strings.ContainsAny(rest, "?#") {
			return nil, fmt.Errorf("state store %q: a file URL takes no query (?) or fragment (#); name a local folder, e.g. file:///srv/kops-state", s)
		}
		return localPath(filepath.FromSlash(rest)), nil
	case "memfs":
		name, rel, _ := strings.Cut(rest, "/")
		if name == "" {
			return nil, fmt.Errorf("state store %q: memfs URLs need a store name, e.g. memfs://test", s)
		}
		if mem == nil {
			return nil, fmt.Errorf("state store %q: memfs:// is only available to tests that supply an in-memory store", s)
		}
		return mem.path(name, rel), nil
	case "s3":
		return parseS3(s, rest, store)
	default:
		return nil, fmt.Errorf("state store %q uses scheme %q, which is not supported by this build; use s3://bucket/prefix, file:///path or a local directory", s, scheme)
	}
}

// isScheme reports whether s is a URL scheme (RFC 3986: ALPHA *( ALPHA /
// DIGIT / "+" / "-" / "." )). Anything else before "://" is part of a
// plain path.
func isScheme(s string) bool {
	for i, c := range s {
		letter := 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
		if !letter && (i == 0 || !('0' <= c && c <= '9' || c == '+' || c == '-' || c == '.')) {
			return false
		}
	}
	return s != ""
}
