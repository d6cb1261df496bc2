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
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"
)

// ReadLocalFile reads a file the user named: a regular file of at most MaxFileSize or, with allowPipe,
// a pipe up to that bound. The open never blocks, and a device (/dev/zero) is refused unread.
func ReadLocalFile(name string, allowPipe bool) ([]byte, error) {
	return readLocal(name, name, allowPipe)
}

func readLocal(name, display string, allowPipe bool) ([]byte, error) {
	f, err := os.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer func() { _ = f.Close() }()
	return readRegular(f, display, allowPipe)
}

// readRegular checks the open descriptor, so what is checked is what is read.
func readRegular(f *os.File, name string, allowPipe bool) ([]byte, error) {
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	mode := info.Mode()
	pipe := mode&fs.ModeNamedPipe != 0
	switch {
	case pipe && allowPipe:
	case !mode.IsRegular():
		return nil, fmt.Errorf("%s: %w (%s)", name, ErrNotRegular, describeMode(mode))
	case info.Size() > MaxFileSize:
		return nil, tooLarge(name, info.Size())
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxFileSize+1))
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", name, err)
	}
	if len(data) > MaxFileSize {
		return nil, tooLarge(name, int64(len(data)))
	}
	return data, nil
}

func describeMode(m os.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&os.ModeNamedPipe != 0:
		return "a FIFO"
	case m&os.ModeDevice != 0:
		return "a device"
	case m&os.ModeSocket != 0:
		return "a socket"
	case m&os.ModeSymlink != 0:
		return "a symlink"
	}
	return "mode " + m.String()
}
