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

package templates

import (
	"bytes"
	"fmt"
	"io/fs"
	"path"
	"text/template"
)

// Render executes name after parsing the partials; missing map keys are errors and the output ends
// with a newline.
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
