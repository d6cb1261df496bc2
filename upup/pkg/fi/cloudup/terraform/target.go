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

package terraform

import (
	"context"
	"fmt"
	"reflect"
	"regexp"
	"strings"
	"sync"

	"github.com/hashicorp/hcl/v2/hclwrite"

	"k8s.io/kops/upup/pkg/fi"
)

type Options struct {
	ClusterName string
	Region      string
	// StateStore renders the non-cloud tasks (the addon files); nil makes such tasks an error.
	StateStore fi.Target
}

// Target collects Renderer tasks' resources and files for Files and OutputTasks. It is safe for
// fi.Run's concurrent Render calls.
type Target struct {
	opts Options

	mu        sync.Mutex
	resources map[string]resource // by "type.name", data sources by "data.type.name"
	files     map[string][]byte   // by path below --out, "data/..."
	outputs   map[string]*Literal // by output name
	// outputLists are list outputs several tasks add to (kops's node_security_group_ids); each item once.
	outputLists map[string][]*Literal
}

type resource struct {
	block              string
	resourceType, name string
	items              []item
	refs               []*Literal
}

var _ fi.Target = (*Target)(nil)

func NewTarget(opts Options) *Target {
	return &Target{opts: opts, resources: map[string]resource{}, files: map[string][]byte{}, outputs: map[string]*Literal{},
		outputLists: map[string][]*Literal{}}
}

func (t *Target) Name() string { return "terraform" }

// Render renders a Renderer task whatever its action (terraform needs the full description); other
// tasks go to the state-store target.
func (t *Target) Render(ctx context.Context, c *fi.Context, task fi.Task, change *fi.Change) error {
	if r, ok := task.(Renderer); ok {
		return r.RenderTerraform(t)
	}
	if t.opts.StateStore == nil {
		return &fi.NoRendererError{Task: task.Key(), TaskType: fmt.Sprintf("%T", task), Target: t.Name(), Renderer: "terraform.Renderer"}
	}
	return t.opts.StateStore.Render(ctx, c, task, change)
}

// RenderResource adds a resource from a struct with `cty:"name"` tags: empty values are left out,
// *Literal fields are expressions, structs are nested blocks, maps have sorted keys. A duplicate is an error.
func (t *Target) RenderResource(resourceType, resourceName string, body interface{}) error {
	if err := labelsValid(resourceType, resourceName); err != nil {
		return err
	}
	key := resourceType + "." + resourceName
	var refs []*Literal
	items, err := encodeBody(reflect.ValueOf(body), key, &refs)
	if err != nil {
		return err
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if _, dup := t.resources[key]; dup {
		return fmt.Errorf("resource %s is rendered twice: two tasks map to the same terraform name", key)
	}
	t.resources[key] = resource{block: "resource", resourceType: resourceType, name: resourceName, items: items, refs: refs}
	return nil
}

// RenderDataSource adds a data source; tasks sharing one may each declare it with the same body.
func (t *Target) RenderDataSource(dataType, name string, body interface{}) error {
	if err := labelsValid(dataType, name); err != nil {
		return err
	}
	key := "data." + dataType + "." + name
	var refs []*Literal
	items, err := encodeBody(reflect.ValueOf(body), key, &refs)
	if err != nil {
		return err
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if old, dup := t.resources[key]; dup {
		if !reflect.DeepEqual(old.items, items) {
			return fmt.Errorf("%s is declared twice with different bodies", key)
		}
		return nil
	}
	t.resources[key] = resource{block: "data", resourceType: dataType, name: name, items: items, refs: refs}
	return nil
}

// AddOutput adds an output and its local (nodes_role_arn); cluster_name and region are reserved.
func (t *Target) AddOutput(name string, value *Literal) error {
	if err := checkOutputName(name); err != nil {
		return err
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if _, list := t.outputLists[name]; list {
		return fmt.Errorf("output %s is a single value and a list", name)
	}
	if old, ok := t.outputs[name]; ok && old.expr != value.expr {
		return fmt.Errorf("output %s is added twice with different values: %s and %s", name, old.expr, value.expr)
	}
	t.outputs[name] = value
	return nil
}

func checkOutputName(name string) error {
	if !validName(name) {
		return fmt.Errorf("output %q: not a valid HCL name", name)
	}
	if name == "cluster_name" || name == "region" {
		return fmt.Errorf("output %q is written by the target itself", name)
	}
	return nil
}

// AddOutputListItem adds item once to a sorted list output, as kops collects node_security_group_ids.
func (t *Target) AddOutputListItem(name string, item *Literal) error {
	if err := checkOutputName(name); err != nil {
		return err
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if _, single := t.outputs[name]; single {
		return fmt.Errorf("output %s is a single value and a list", name)
	}
	for _, l := range t.outputLists[name] {
		if l.expr == item.expr {
			return nil
		}
	}
	t.outputLists[name] = append(t.outputLists[name], item)
	return nil
}

// fileNameRE keeps data file names free of HCL template escapes and path separators.
var fileNameRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*$`) })

// AddFile stores contents as data/<type>_<name>_<key> and returns the file() (or filebase64())
// expression; adding equal contents twice is fine.
func (t *Target) AddFile(resourceType, resourceName, key string, contents []byte, base64 bool) (*Literal, error) {
	name := resourceType + "_" + resourceName + "_" + key
	for _, part := range []string{resourceType, resourceName, key} {
		if !fileNameRE().MatchString(part) {
			return nil, fmt.Errorf("data file name %q: each of type, name and key must be letters, digits, '.', '_' and '-', got %q", name, part)
		}
	}
	rel := "data/" + name
	t.mu.Lock()
	defer t.mu.Unlock()
	if old, ok := t.files[rel]; ok && string(old) != string(contents) {
		return nil, fmt.Errorf("data file %s is added twice with different contents", rel)
	}
	t.files[rel] = append([]byte(nil), contents...)
	function := "file"
	if base64 {
		function = "filebase64"
	}
	call := hclwrite.TokensForFunctionCall(function, modulePathTemplate("/"+rel))
	return &Literal{tokens: call, expr: string(call.Bytes()), file: rel}, nil
}

// AddTemplateFile stores contents as data/<type>_<name>_<key> and returns a templatefile() call
// that sets variable to value: the file's only interpolation is ${variable}; any other "${" or "%{"
// in contents is escaped, so the bytes terraform reads back are contents with value put in. It is
// for documents that must name an attribute known only when applied (an ARN with the account ID).
func (t *Target) AddTemplateFile(resourceType, resourceName, key string, contents []byte, variable string, value *Literal) (*Literal, error) {
	if !validName(variable) || variable == "for" {
		return nil, fmt.Errorf("template variable %q: not a valid HCL name", variable)
	}
	if value == nil || value.file != "" {
		return nil, fmt.Errorf("template variable %s: needs a value that reads no file", variable)
	}
	file, err := t.AddFile(resourceType, resourceName, key, escapeTemplate(contents, "${"+variable+"}"), false)
	if err != nil {
		return nil, err
	}
	vars := objectExpr([]hclwrite.ObjectAttrTokens{{Name: hclwrite.TokensForIdentifier(variable), Value: cloneTokens(value.tokens)}})
	call := hclwrite.TokensForFunctionCall("templatefile", modulePathTemplate("/"+file.file), vars)
	return &Literal{tokens: call, expr: string(call.Bytes()), file: file.file, refersTo: value.refersTo}, nil
}

// escapeTemplate doubles the "$" of every "${" and the "%" of every "%{" (HCL's template escapes)
// except where keep begins.
func escapeTemplate(contents []byte, keep string) []byte {
	s := string(contents)
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if strings.HasPrefix(s[i:], keep) {
			b.WriteString(keep)
			i += len(keep) - 1
			continue
		}
		if (s[i] == '$' || s[i] == '%') && i+1 < len(s) && s[i+1] == '{' {
			b.WriteByte(s[i])
		}
		b.WriteByte(s[i])
	}
	return []byte(b.String())
}
