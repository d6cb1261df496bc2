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
	"sync"

	"github.com/hashicorp/hcl/v2/hclwrite"

	"k8s.io/kops/upup/pkg/fi"
)

// Options configure a Target.
type Options struct {
	// ClusterName and Region go into the provider block, locals and outputs.
	ClusterName string
	Region      string
	// StateStore renders the tasks that are not cloud resources (the addon files, which still go
	// to the state store): a fi.DryRunTarget to preview, a fi.DirectTarget to write. Nil means
	// such tasks are an error.
	StateStore fi.Target
}

// Target collects the resources and files of every task that implements Renderer; Files then
// returns kubernetes.tf and data/ as bytes, and OutputTasks the tasks that write them to --out.
// It is safe for the concurrent Render calls of fi.Run.
type Target struct {
	opts Options

	mu        sync.Mutex
	resources map[string]resource // by "type.name", data sources by "data.type.name"
	files     map[string][]byte   // by path below --out, "data/..."
	outputs   map[string]*Literal // by output name
	// outputLists are outputs whose value is a list that several tasks add to (kops's
	// node_security_group_ids), by name; each item once.
	outputLists map[string][]*Literal
}

// resource is one rendered `resource "type" "name"` block, or `data "type" "name"` block.
type resource struct {
	// block is "resource" or "data".
	block              string
	resourceType, name string
	items              []item
	// refs are the literals the body uses.
	refs []*Literal
}

var _ fi.Target = (*Target)(nil)

// NewTarget returns an empty target.
func NewTarget(opts Options) *Target {
	return &Target{opts: opts, resources: map[string]resource{}, files: map[string][]byte{}, outputs: map[string]*Literal{},
		outputLists: map[string][]*Literal{}}
}

func (t *Target) Name() string { return "terraform" }

// Render asks a Renderer task to write itself, whatever its planned action (terraform needs the
// full description); other tasks go to the state-store target.
func (t *Target) Render(ctx context.Context, c *fi.Context, task fi.Task, change *fi.Change) error {
	if r, ok := task.(Renderer); ok {
		return r.RenderTerraform(t)
	}
	if t.opts.StateStore == nil {
		return &fi.NoRendererError{Task: task.Key(), TaskType: fmt.Sprintf("%T", task), Target: t.Name(), Renderer: "terraform.Renderer"}
	}
	return t.opts.StateStore.Render(ctx, c, task, change)
}

// RenderResource adds resource "<resourceType>" "<resourceName>" with body: a struct or pointer to
// one whose exported fields carry `cty:"name"` tags. Nil pointers, empty strings, nil maps and nil
// slices are left out; *Literal fields are written as expressions; struct (or pointer to struct)
// fields become nested blocks, slices of structs repeated blocks; map[string]string fields become
// map attributes with sorted keys. Attributes and blocks are written sorted by name, as kops does.
// A second resource with the same type and name is an error.
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

// RenderDataSource adds data "<dataType>" "<name>" with body, as RenderResource adds a resource:
// something terraform looks up rather than makes (a security group kops made). Tasks that share
// what they look up may each declare it: a second declaration with the same body is the same
// data source, one with another body an error.
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

// AddOutput adds `output "<name>"` (and the local of the same name) with value, kops's way of
// telling other terraform what it made (nodes_role_arn). name must be a valid HCL name, not
// cluster_name or region (always written), and not added twice with another value.
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

// checkOutputName refuses an output name that is not a valid HCL name, or one the target writes
// itself (cluster_name, region).
func checkOutputName(name string) error {
	if !validName(name) {
		return fmt.Errorf("output %q: not a valid HCL name", name)
	}
	if name == "cluster_name" || name == "region" {
		return fmt.Errorf("output %q is written by the target itself", name)
	}
	return nil
}

// AddOutputListItem adds item to the list output name (and its local), as kops collects what
// several tasks share under one output (node_security_group_ids: every node group's security
// groups). An item already in the list is not added again; the list is written sorted. name must
// not also be a single-valued output.
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

// fileNameRE keeps data file names free of anything HCL would need to escape inside a template,
// and of path separators.
var fileNameRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*$`) })

// AddFile stores contents as data/<resourceType>_<resourceName>_<key> and returns the expression
// that reads it: file("${path.module}/data/...") or, with base64 set, filebase64(...) (user data).
// Adding the same file twice is fine when the contents are equal.
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
