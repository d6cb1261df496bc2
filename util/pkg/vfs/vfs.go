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

// Path is a location in a state store; missing files satisfy errors.Is(err, fs.ErrNotExist).
type Path interface {
	// Join's result must lie strictly below the receiver, else every operation on it fails with
	// ErrOutsideBase, so an unvalidated name still cannot reach outside.
	Join(elems ...string) Path
	Dir() Path
	Base() string
	// String returns a form that ParsePath maps back to this path.
	String() string
	// ReadFile reads a regular file of at most MaxFileSize; otherwise ErrNotRegular or ErrTooLarge, and a
	// FIFO does not block.
	ReadFile() ([]byte, error)
	// WriteFile creates parent directories; a failed write leaves the previous content.
	WriteFile(data []byte) error
	// CheckWritable says why WriteFile or Remove would be refused, writing nothing, so planners refuse
	// before a run's first write.
	CheckWritable() error
	Remove() error
	// RemoveDir deletes a directory holding nothing but temp files of killed writes.
	RemoveDir() error
	// RemoveAll: a missing path is not an error.
	RemoveAll() error
	// ReadDir returns the immediate children, sorted by name.
	ReadDir() ([]Path, error)
	Exists() (bool, error)
	// IsDir does not follow a final symlink, so a deleting walk never leaves the store.
	IsDir() (bool, error)
	// Lock takes an exclusive lock, waiting, and returns its release; a dying process releases it. A
	// name starting with "." and ending with LockSuffix is hidden from ReadDir.
	Lock() (unlock func(), err error)
}

// ParsePath accepts file:///abs, a plain directory (made absolute) and memfs://name/... inside mem
// (nil refuses it); s3:// needs a Context made WithS3. Production code parses through a Context.
func ParsePath(s string, mem *MemFS) (Path, error) { return parsePath(s, mem, nil) }

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
		// A query or fragment would silently become part of a folder name.
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

func isScheme(s string) bool {
	for i, c := range s {
		letter := 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
		if !letter && (i == 0 || !('0' <= c && c <= '9' || c == '+' || c == '-' || c == '.')) {
			return false
		}
	}
	return s != ""
}
