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
)

// Conditional writes: where the store can compare at the moment of the write (S3's If-Match and
// If-None-Match), a create never replaces and a replace never overwrites a revision it did not
// read, even between machines whose store lock is a lease that a paused process may have lost.
// Local and in-memory stores compare nothing here: their writers hold the store lock, which flock
// (or a mutex) makes exact.

// ErrPrecondition is returned, wrapped, when a conditional write finds the object not as expected:
// a create found one, or a replace found another revision (or none).
var ErrPrecondition = errors.New("the stored object is not the one expected")

// Version is what a conditional write expects to find: the ETag of the object that was read. The
// zero Version of a local or in-memory file asks for no check.
type Version struct {
	// ETag is the object's revision as its store names it; "" asks for no check.
	ETag string
}

// ConditionalPath is a Path whose store compares revisions at the moment of a write (an s3://
// path). Callers use the package functions, which take any Path.
type ConditionalPath interface {
	Path
	// ReadFileVersion reads the file and the version ReplaceFileVersion compares with.
	ReadFileVersion() ([]byte, Version, error)
	// ReplaceFileVersion writes data if the file still is version v (any, for the zero Version);
	// otherwise it fails with ErrPrecondition.
	ReplaceFileVersion(data []byte, v Version) error
	// CreateFileOnce writes data only if nothing is there; otherwise it fails with fs.ErrExist.
	CreateFileOnce(data []byte) error
}

// ReadFileVersion reads p and the version ReplaceFile compares with.
func ReadFileVersion(p Path) ([]byte, Version, error) {
	if c, ok := p.(ConditionalPath); ok {
		return c.ReadFileVersion()
	}
	data, err := p.ReadFile()
	return data, Version{}, err
}

// ReplaceFile writes data over p if p still is version v; otherwise it fails with ErrPrecondition.
func ReplaceFile(p Path, data []byte, v Version) error {
	if c, ok := p.(ConditionalPath); ok {
		return c.ReplaceFileVersion(data, v)
	}
	return p.WriteFile(data)
}

// CreateFile writes data to p only if nothing is there; otherwise it fails with fs.ErrExist. Local
// and in-memory paths check first, under the caller's store lock.
func CreateFile(p Path, data []byte) error {
	if c, ok := p.(ConditionalPath); ok {
		return c.CreateFileOnce(data)
	}
	exists, err := p.Exists()
	if err != nil {
		return err
	}
	if exists {
		return &fs.PathError{Op: "create", Path: p.String(), Err: fs.ErrExist}
	}
	if err := p.WriteFile(data); err != nil {
		return fmt.Errorf("creating %s: %w", p, err)
	}
	return nil
}
