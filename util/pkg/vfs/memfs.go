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
	"io/fs"
	"maps"
	"path"
	"slices"
	"strings"
	"sync"
	"syscall"
)

// MemFS is an in-memory state store for tests (memfs://name/...), with local-filesystem semantics and
// mutation counts so tests can assert a no-op run changes nothing. The zero value is ready and safe
// for concurrent use.
type MemFS struct {
	mu      sync.Mutex
	roots   map[string]*memNode
	locks   map[string]*sync.Mutex // by path, for Lock
	writes  int
	removes int
}

type memNode struct {
	data     []byte
	children map[string]*memNode // non-nil exactly for directories
}

func (n *memNode) isDir() bool { return n.children != nil }

func (m *MemFS) Stats() (writes, removes int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.writes, m.removes
}

func (m *MemFS) path(name, rel string) memPath {
	return memPath{fs: m, name: name, rel: path.Clean("/" + rel)}
}

type memPath struct {
	fs   *MemFS
	name string
	rel  string
}

func (p memPath) Join(elems ...string) Path {
	if len(elems) == 0 {
		return p
	}
	rel, err := joinRel(p.String, elems)
	if err != nil {
		return refused(p.String(), elems, err)
	}
	return p.fs.path(p.name, path.Join(p.rel, rel))
}

func (p memPath) Dir() Path { return p.fs.path(p.name, path.Dir(p.rel)) }

func (p memPath) Lock() (func(), error) {
	p.fs.mu.Lock()
	if p.fs.locks == nil {
		p.fs.locks = map[string]*sync.Mutex{}
	}
	l := p.fs.locks[p.String()]
	if l == nil {
		l = &sync.Mutex{}
		p.fs.locks[p.String()] = l
	}
	p.fs.mu.Unlock()
	l.Lock()
	return l.Unlock, nil
}

func (p memPath) Base() string {
	if p.rel == "/" {
		return p.name
	}
	return path.Base(p.rel)
}

func (p memPath) String() string {
	if p.rel == "/" {
		return "memfs://" + p.name
	}
	return "memfs://" + p.name + p.rel
}

func (p memPath) err(op string, err error) error {
	return &fs.PathError{Op: op, Path: p.String(), Err: err}
}

// lookup fails with ENOTDIR when an ancestor is a file, as the local filesystem does. Callers hold p.fs.mu.
func (p memPath) lookup() (*memNode, error) {
	n := p.fs.roots[p.name]
	if p.rel != "/" {
		for _, part := range strings.Split(p.rel[1:], "/") {
			if n == nil {
				break
			}
			if !n.isDir() {
				return nil, syscall.ENOTDIR
			}
			n = n.children[part]
		}
	}
	if n == nil {
		return nil, fs.ErrNotExist
	}
	return n, nil
}

func (p memPath) ReadFile() ([]byte, error) {
	p.fs.mu.Lock()
	defer p.fs.mu.Unlock()
	n, err := p.lookup()
	if err != nil {
		return nil, p.err("read", err)
	}
	if n.isDir() {
		return nil, p.err("read", fmt.Errorf("%w (a directory)", ErrNotRegular))
	}
	if len(n.data) > MaxFileSize {
		return nil, tooLarge(p.String(), int64(len(n.data)))
	}
	return slices.Clone(n.data), nil
}

func (p memPath) WriteFile(data []byte) error {
	p.fs.mu.Lock()
	defer p.fs.mu.Unlock()
	// Validate the whole walk first, so a failed write changes nothing.
	n, err := p.lookup()
	switch {
	case err == nil && n.isDir():
		return p.err("write", syscall.EISDIR)
	case err != nil && err != fs.ErrNotExist:
		return p.err("write", err)
	}
	if p.fs.roots == nil {
		p.fs.roots = map[string]*memNode{}
	}
	dir := mkdir(p.fs.roots, p.name)
	parts := strings.Split(p.rel[1:], "/")
	for _, part := range parts[:len(parts)-1] {
		dir = mkdir(dir.children, part)
	}
	dir.children[parts[len(parts)-1]] = &memNode{data: slices.Clone(data)}
	p.fs.writes++
	return nil
}

func (p memPath) CheckWritable() error {
	p.fs.mu.Lock()
	defer p.fs.mu.Unlock()
	n, err := p.lookup()
	switch {
	case err == nil && n.isDir():
		return p.err("write", syscall.EISDIR)
	case err != nil && err != fs.ErrNotExist:
		return p.err("write", err)
	}
	return nil
}

func mkdir(in map[string]*memNode, name string) *memNode {
	if in[name] == nil {
		in[name] = &memNode{children: map[string]*memNode{}}
	}
	return in[name]
}

func (p memPath) Remove() error {
	p.fs.mu.Lock()
	defer p.fs.mu.Unlock()
	n, err := p.lookup()
	if err != nil {
		return p.err("remove", err)
	}
	if n.isDir() && len(n.children) > 0 {
		return p.err("remove", syscall.ENOTEMPTY)
	}
	p.unlink()
	return nil
}

func (p memPath) RemoveDir() error {
	p.fs.mu.Lock()
	defer p.fs.mu.Unlock()
	n, err := p.lookup()
	if err != nil {
		return p.err("removedir", err)
	}
	if !n.isDir() {
		return p.err("removedir", syscall.ENOTDIR)
	}
	if len(n.children) > 0 {
		return p.err("removedir", syscall.ENOTEMPTY)
	}
	p.unlink()
	return nil
}

func (p memPath) RemoveAll() error {
	p.fs.mu.Lock()
	defer p.fs.mu.Unlock()
	_, err := p.lookup()
	if err == fs.ErrNotExist {
		return nil
	}
	if err != nil {
		return p.err("removeall", err)
	}
	p.unlink()
	return nil
}

func (p memPath) unlink() {
	if p.rel == "/" {
		delete(p.fs.roots, p.name)
	} else {
		parent, _ := p.fs.path(p.name, path.Dir(p.rel)).lookup()
		delete(parent.children, path.Base(p.rel))
	}
	p.fs.removes++
}

func (p memPath) ReadDir() ([]Path, error) {
	p.fs.mu.Lock()
	defer p.fs.mu.Unlock()
	n, err := p.lookup()
	if err != nil {
		return nil, p.err("readdir", err)
	}
	if !n.isDir() {
		return nil, p.err("readdir", syscall.ENOTDIR)
	}
	var children []Path
	for _, name := range slices.Sorted(maps.Keys(n.children)) {
		children = append(children, p.fs.path(p.name, path.Join(p.rel, name)))
	}
	return children, nil
}

func (p memPath) Exists() (bool, error) {
	p.fs.mu.Lock()
	defer p.fs.mu.Unlock()
	_, err := p.lookup()
	if err == fs.ErrNotExist {
		return false, nil
	}
	if err != nil {
		return false, p.err("stat", err)
	}
	return true, nil
}

func (p memPath) IsDir() (bool, error) {
	p.fs.mu.Lock()
	defer p.fs.mu.Unlock()
	n, err := p.lookup()
	if err != nil {
		return false, p.err("stat", err)
	}
	return n.isDir(), nil
}
