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

// Where the store can compare at write time (S3 If-Match, If-None-Match), a create never replaces and
// a replace never overwrites an unread revision, even when a paused process lost its lease. Local and
// in-memory stores rely on the store lock, which flock or a mutex makes exact.

var ErrPrecondition = errors.New("the stored object is not the one expected")

// Version is the ETag of the object read; the zero Version asks for no check.
type Version struct {
	ETag string
}

// ConditionalPath is a Path whose store compares revisions at write time (s3://); use the package functions.
type ConditionalPath interface {
	Path
	ReadFileVersion() ([]byte, Version, error)
	// ReplaceFileVersion fails with ErrPrecondition unless the file is still version v.
	ReplaceFileVersion(data []byte, v Version) error
	// CreateFileOnce fails with fs.ErrExist if something is there.
	CreateFileOnce(data []byte) error
}

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

// CreateFile fails with fs.ErrExist if something is there; local and in-memory paths check first,
// under the caller's store lock.
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
