package vfs

import (
	"errors"
	"fmt"
	"io/fs"

	"github.com/aws/aws-sdk-go-v2/aws"
)

// Conditional writes: where the store can compare at the moment of the write (S3's If-Match and
// If-None-Match), a create never replaces and a replace never overwrites a revision it did not
// read, even between machines whose store lock is a lease that a paused process may have lost.
// Local and in-memory stores compare nothing here: their writers hold the store lock, which flock
// (or a mutex) makes exact.

// Version is what a conditional write expects to find: the ETag of the object that was read. The
// zero Version of a local or in-memory file asks for no check.
type Version struct{ etag string }

// ReadFileVersion reads p and the version ReplaceFile compares with.
func ReadFileVersion(p Path) ([]byte, Version, error) {
	if s, ok := p.(s3Path); ok {
		data, etag, err := s.read()
		return data, Version{etag: etag}, err
	}
	data, err := p.ReadFile()
	return data, Version{}, err
}

// ReplaceFile writes data over p if p still is version v; otherwise it fails with ErrPrecondition.
func ReplaceFile(p Path, data []byte, v Version) error {
	if s, ok := p.(s3Path); ok && v.etag != "" {
		return s.put(data, aws.String(v.etag), nil)
	}
	return p.WriteFile(data)
}

// CreateFile writes data to p only if nothing is there; otherwise it fails with fs.ErrExist. Local
// and in-memory paths check first, under the caller's store lock.
func CreateFile(p Path, data []byte) error {
	if s, ok := p.(s3Path); ok {
		err := s.put(data, nil, aws.String("*"))
		if errors.Is(err, ErrPrecondition) {
			return &fs.PathError{Op: "create", Path: p.String(), Err: fs.ErrExist}
		}
		return err
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
