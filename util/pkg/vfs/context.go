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
	"path/filepath"
	"slices"
	"strings"
)

// Context resolves the path strings kops reads (--state, spec.configBase, spec.channel): file://
// URLs and local directories always, memfs:// URLs inside the in-memory store it was made with. It
// is kops's VFSContext idea: the clientset owns one, and production code asks it to parse paths
// instead of threading an in-memory store through every signature. A nil *Context resolves file
// paths only.
//
// A Context also knows its state store's root (WithRoot): a local path below it, such as a
// cluster's spec.configBase, resolves inside that root, so every write there is confined to the
// store as the store's own paths are (no folder on the way, the cluster's included, may be a link).
type Context struct {
	mem   *MemFS
	s3    S3
	roots []fsPath
}

// NewContext is a Context whose memfs:// URLs resolve inside mem; mem nil refuses them, as a
// real kops binary does.
func NewContext(mem *MemFS) *Context { return &Context{mem: mem} }

// ContextOf is the Context that resolves paths next to p: one holding p's in-memory store when p
// is a memfs:// path, so that a store's configBase and channel resolve where the store is, and
// with p as a root when it is local.
func ContextOf(p Path) *Context {
	switch p := p.(type) {
	case memPath:
		return &Context{mem: p.fs}
	case S3Path:
		return &Context{s3: p.S3()}
	}
	return (&Context{}).WithRoot(p)
}

// WithS3 is a copy of c that resolves s3:// URLs with store (made by the cmd edge from the
// settings it read, see S3).
func (c *Context) WithS3(store S3) *Context {
	out := &Context{s3: store}
	if c != nil {
		out.mem, out.roots = c.mem, slices.Clone(c.roots)
	}
	return out
}

// WithRoot is a copy of c that resolves local paths below root (a store's base) inside root.
func (c *Context) WithRoot(root Path) *Context {
	out := &Context{}
	if c != nil {
		out.mem, out.s3, out.roots = c.mem, c.s3, slices.Clone(c.roots)
	}
	if p, ok := root.(fsPath); ok {
		out.roots = append(out.roots, fsPath{root: p.path()})
	}
	return out
}

// ParsePath turns a path string into a Path (see the package function ParsePath for the forms).
func (c *Context) ParsePath(s string) (Path, error) {
	var mem *MemFS
	var store S3
	if c != nil {
		mem, store = c.mem, c.s3
	}
	p, err := parsePath(s, mem, store)
	if err != nil || c == nil {
		return p, err
	}
	if local, ok := p.(fsPath); ok {
		return c.within(local), nil
	}
	return p, nil
}

// within re-roots p at the deepest known root that holds it.
func (c *Context) within(p fsPath) fsPath {
	best := p
	for _, r := range c.roots {
		rel, err := filepath.Rel(r.root, p.root)
		if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
			continue
		}
		if rel == "." {
			rel = ""
		}
		if best == p || len(r.root) > len(best.root) {
			best = fsPath{root: r.root, rel: filepath.ToSlash(rel)}
		}
	}
	return best
}

// HasMemFS says whether memfs:// URLs resolve (tests).
func (c *Context) HasMemFS() bool { return c != nil && c.mem != nil }
