package vfs

// Context resolves the path strings kops reads (--state, spec.configBase, spec.channel): file://
// URLs and local directories always, memfs:// URLs inside the in-memory store it was made with. It
// is kops's VFSContext idea: the clientset owns one, and production code asks it to parse paths
// instead of threading an in-memory store through every signature. A nil *Context resolves file
// paths only.
type Context struct {
	mem *MemFS
}

// NewContext is a Context whose memfs:// URLs resolve inside mem; mem nil refuses them, as a
// real kops binary does.
func NewContext(mem *MemFS) *Context { return &Context{mem: mem} }

// ContextOf is the Context that resolves paths next to p: one holding p's in-memory store when p
// is a memfs:// path, so that a store's configBase and channel resolve where the store is.
func ContextOf(p Path) *Context {
	if m, ok := p.(memPath); ok {
		return &Context{mem: m.fs}
	}
	return &Context{}
}

// ParsePath turns a path string into a Path (see the package function ParsePath for the forms).
func (c *Context) ParsePath(s string) (Path, error) {
	var mem *MemFS
	if c != nil {
		mem = c.mem
	}
	return ParsePath(s, mem)
}

// HasMemFS says whether memfs:// URLs resolve (tests).
func (c *Context) HasMemFS() bool { return c != nil && c.mem != nil }
