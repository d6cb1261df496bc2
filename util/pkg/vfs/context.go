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
	"time"
)

// Context resolves the path strings kops reads (--state, configBase, channel), as kops's VFSContext;
// a nil *Context resolves file paths only. Local paths below its root (WithRoot) stay confined to it,
// so writes there follow no link, as the store's own do.
type Context struct {
	mem   *MemFS
	s3    S3
	roots []fsPath
}

// NewContext resolves memfs:// inside mem; nil mem refuses them, as a real kops binary does.
func NewContext(mem *MemFS) *Context { return &Context{mem: mem} }

// ContextOf resolves paths next to p: in p's in-memory store, or with p as a root when local.
func ContextOf(p Path) *Context {
	switch p := p.(type) {
	case memPath:
		return &Context{mem: p.fs}
	case S3Path:
		return &Context{s3: p.S3()}
	}
	return (&Context{}).WithRoot(p)
}

func (c *Context) WithS3(store S3) *Context {
	out := &Context{s3: store}
	if c != nil {
		out.mem, out.roots = c.mem, slices.Clone(c.roots)
	}
	return out
}

// Until ends every request of the context's S3 store by deadline (a command's time limit), where
// the store can be bounded so; local and in-memory paths need no deadline.
func (c *Context) Until(deadline time.Time) *Context {
	if c == nil || c.s3 == nil {
		return c
	}
	bounded, ok := c.s3.(interface{ Until(time.Time) S3 })
	if !ok {
		return c
	}
	return c.WithS3(bounded.Until(deadline))
}

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

func (c *Context) HasMemFS() bool { return c != nil && c.mem != nil }
