// Package templates executes the addon templates kops embeds (upup/models), with helpers that emit
// spec values as YAML which decodes to exactly the value given.
package templates

import (
	"bytes"
	"fmt"
	"io/fs"
	"path"
	"text/template"
)

// Render executes the template at name in fsys with data, after parsing the templates matching
// each of partials (named templates shared by several addons). Missing map keys are errors rather
// than "<no value>", and the output always ends with a newline.
func Render(fsys fs.FS, name string, data any, partials ...string) ([]byte, error) {
	src, err := fs.ReadFile(fsys, name)
	if err != nil {
		return nil, fmt.Errorf("reading embedded template %q: %w", name, err)
	}
	tmpl, err := template.New(path.Base(name)).Funcs(funcs()).Option("missingkey=error").Parse(string(src))
	if err != nil {
		return nil, fmt.Errorf("parsing template %q: %w", name, err)
	}
	for _, glob := range partials {
		if tmpl, err = tmpl.ParseFS(fsys, glob); err != nil {
			return nil, fmt.Errorf("parsing the partials of template %q: %w", name, err)
		}
	}
	var out bytes.Buffer
	if err := tmpl.Execute(&out, data); err != nil {
		return nil, fmt.Errorf("rendering template %q: %w", name, err)
	}
	if !bytes.HasSuffix(out.Bytes(), []byte("\n")) {
		out.WriteByte('\n')
	}
	return out.Bytes(), nil
}
