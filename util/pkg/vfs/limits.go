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
	"time"
)

// MaxFileSize bounds every read from a state store: state documents are a few KiB, so anything
// this large is a mistake (or a file pointing at /dev/zero) and must not be read into memory.
const MaxFileSize = 16 << 20

// staleTempAge is how old a leftover temp file of an atomic write must be before the next write
// to its directory removes it. A live writer touches its temp file until the rename, which takes
// milliseconds; ten minutes leaves no doubt that its writer is gone.
const staleTempAge = 10 * time.Minute

var (
	// ErrNotRegular is returned, wrapped, when a read finds a directory, device, FIFO, socket or
	// anything else that is not a regular file (following symlinks).
	ErrNotRegular = errors.New("not a regular file")
	// ErrTooLarge is returned, wrapped, when a file is larger than MaxFileSize.
	ErrTooLarge = errors.New("file too large")
)

func tooLarge(name string, size int64) error {
	return fmt.Errorf("%s: %w: %d bytes, more than the limit of %d MiB", name, ErrTooLarge, size, MaxFileSize>>20)
}

// TooLarge is the error of a read of name that found size bytes, more than MaxFileSize; it wraps
// ErrTooLarge.
func TooLarge(name string, size int64) error { return tooLarge(name, size) }
