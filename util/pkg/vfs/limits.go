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

// MaxFileSize bounds every state store read: state documents are small, so a larger file is a
// mistake (or /dev/zero) and must not be read into memory.
const MaxFileSize = 16 << 20

// staleTempAge: a live writer renames its temp file almost at once, so a temp this old is abandoned.
const staleTempAge = 10 * time.Minute

var (
	ErrNotRegular = errors.New("not a regular file")
	ErrTooLarge   = errors.New("file too large")
)

func tooLarge(name string, size int64) error {
	return fmt.Errorf("%s: %w: %d bytes, more than the limit of %d MiB", name, ErrTooLarge, size, MaxFileSize>>20)
}

func TooLarge(name string, size int64) error { return tooLarge(name, size) }
