// Package models holds the addon templates kops renders, embedded in the binary so that what a
// cluster gets depends only on the kops version and the cluster spec, never on the network.
package models

import (
	"bytes"
	"embed"
	"fmt"
	"io/fs"
	"path"
	"text/template"
)

//go:embed cloudup/resources/addons
var content embed.FS

// partials holds templates that only define named templates for others to use.
const partials = "cloudup/resources/addons/partials"

// FS returns the embedded templates, rooted so that paths start with "cloudup/resources/addons/".
func FS() fs.FS {
	return content
}

// Render executes the embedded template at name (a path in FS) with data. Missing map keys are
// errors rather than "<no value>", and the output always ends with a newline.
func Render(name string, data any) ([]byte, error) {
	src, err := content.ReadFile(name)
	if err != nil {
		return nil, fmt.Errorf("reading embedded template %q: %w", name, err)
	}
	tmpl, err := template.New(path.Base(name)).Funcs(funcs()).Option("missingkey=error").Parse(string(src))
	if err != nil {
		return nil, fmt.Errorf("parsing template %q: %w", name, err)
	}
	// Partials define named templates shared by several addons (e.g. the RBAC of CoreDNS).
	if tmpl, err = tmpl.ParseFS(content, partials+"/*.yaml.template"); err != nil {
		return nil, fmt.Errorf("parsing the partials of template %q: %w", name, err)
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
