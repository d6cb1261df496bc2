//go:build unix

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
	"os"
	"syscall"
)

// Lock takes an exclusive flock(2) on p, creating it, and waits. The kernel releases it when its
// holder exits, so a killed command never leaves a store locked.
func (p fsPath) Lock() (func(), error) {
	if p.rel == "" {
		return nil, fmt.Errorf("locking %s: a root folder is not a lock file", p)
	}
	l, err := p.open(true)
	if err != nil {
		return nil, err
	}
	defer l.Close()
	dir, name := split(p.rel)
	d, err := l.folder(dir, true)
	if err != nil {
		return nil, fmt.Errorf("opening lock file: %w", err)
	}
	defer func() { _ = d.Close() }()
	f, err := d.OpenFile(name, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("opening lock file: %w", l.fail("open", p.rel, err))
	}
	for {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		_ = f.Close()
		return nil, fmt.Errorf("locking %s: %w", p, err)
	}
	return func() {
		_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		_ = f.Close()
	}, nil
}
