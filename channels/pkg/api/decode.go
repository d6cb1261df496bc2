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

package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"

	"go.yaml.in/yaml/v3"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"k8s.io/kops/util/pkg/yamlshape"
)

// FileError lists every problem of one file, with its line where known.
type FileError struct {
	Source   string
	Problems []Problem
}

// Problem is one thing wrong at Line, 0 when unknown.
type Problem struct {
	Line int
	Err  error
}

func (e *FileError) Error() string {
	out := make([]string, 0, len(e.Problems))
	for _, p := range e.Problems {
		where := e.Source
		if p.Line > 0 {
			where = fmt.Sprintf("%s:%d", e.Source, p.Line)
		}
		out = append(out, fmt.Sprintf("%s: %v", where, p.Err))
	}
	return strings.Join(out, "\n")
}

// decodeStrict decodes the one YAML document of data into target, reporting every unknown key and
// wrongly shaped value with its line and field path. It returns the line of every field path.
func decodeStrict(data []byte, target interface{}) (yamlshape.Lines, []Problem) {
	root, problems := oneDocument(data)
	if len(problems) > 0 {
		return nil, problems
	}
	c := &shapeChecker{lines: yamlshape.Lines{}}
	c.check(root, reflect.TypeOf(target).Elem(), nil)
	if len(c.problems) > 0 {
		return c.lines, c.problems
	}
	js, err := nodeToJSON(root)
	if err == nil {
		err = json.Unmarshal(js, target)
	}
	if err != nil {
		return c.lines, []Problem{{Line: root.Line, Err: err}}
	}
	return c.lines, nil
}

// oneDocument returns the root of the only document of a YAML stream. A channel must be exactly
// one document: readers that take the first (kops's) would ignore the rest, and an empty first
// document would read as a channel without addons, retiring every addon. Empty or null documents
// are skipped, as kubectl does.
func oneDocument(data []byte) (*yaml.Node, []Problem) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var roots []*yaml.Node
	for {
		var doc yaml.Node
		err := dec.Decode(&doc)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			// A syntax error stops the stream; yaml.v3's message carries the line.
			if len(roots) > 0 {
				err = fmt.Errorf("document %d: %w", len(roots)+1, err)
			}
			return nil, []Problem{{Err: err}}
		}
		if len(doc.Content) == 0 || (doc.Content[0].Kind == yaml.ScalarNode && doc.Content[0].Tag == "!!null") {
			continue
		}
		roots = append(roots, doc.Content[0])
	}
	switch {
	case len(roots) == 0:
		return nil, []Problem{{Err: errors.New("the file holds no YAML document (it is empty, or only comments and ---)")}}
	case len(roots) > 1:
		problems := make([]Problem, 0, len(roots)-1)
		for i, extra := range roots[1:] {
			problems = append(problems, Problem{Line: extra.Line, Err: fmt.Errorf(
				"document %d of %d: a channel file is exactly one YAML document; a reader taking the first would ignore this one", i+2, len(roots))})
		}
		return nil, problems
	}
	return roots[0], nil
}

func nodeToJSON(root *yaml.Node) ([]byte, error) {
	var tree interface{}
	if err := root.Decode(&tree); err != nil {
		return nil, err
	}
	return json.Marshal(tree)
}

type shapeChecker struct {
	lines    yamlshape.Lines
	problems []Problem
}

func (c *shapeChecker) fail(n *yaml.Node, path *field.Path, format string, args ...interface{}) {
	msg := fmt.Sprintf(format, args...)
	if path != nil {
		msg = path.String() + ": " + msg
	}
	c.problems = append(c.problems, Problem{Line: n.Line, Err: fmt.Errorf("%s", msg)})
}

func (c *shapeChecker) check(n *yaml.Node, t reflect.Type, path *field.Path) {
	if n.Kind == yaml.AliasNode {
		c.fail(n, path, "YAML aliases are not supported in a channel")
		return
	}
	if n.Kind == yaml.ScalarNode && n.Tag == "!!null" {
		return // null leaves the zero value, as in JSON
	}
	if path != nil {
		if _, seen := c.lines[path.String()]; !seen {
			c.lines[path.String()] = n.Line
		}
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Struct:
		if c.expect(n, yaml.MappingNode, "an object", path) {
			c.checkStruct(n, t, path)
		}
	case reflect.Map:
		if !c.expect(n, yaml.MappingNode, "an object", path) {
			return
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			key, value := n.Content[i], n.Content[i+1]
			if key.Kind != yaml.ScalarNode || key.Tag != "!!str" {
				c.fail(key, path, "keys must be strings, not %s", describe(key))
				continue
			}
			c.check(value, t.Elem(), path.Key(key.Value))
		}
	case reflect.Slice:
		if !c.expect(n, yaml.SequenceNode, "a list", path) {
			return
		}
		for i, item := range n.Content {
			c.check(item, t.Elem(), path.Index(i))
		}
	case reflect.String:
		if c.expect(n, yaml.ScalarNode, "a string", path) && n.Tag != "!!str" {
			c.fail(n, path, "must be a string, not %s (quote it)", describe(n))
		}
	case reflect.Bool:
		if c.expect(n, yaml.ScalarNode, "true or false", path) && n.Tag != "!!bool" {
			c.fail(n, path, "must be true or false, not %s", describe(n))
		}
	case reflect.Int, reflect.Int64, reflect.Int32:
		if c.expect(n, yaml.ScalarNode, "an integer", path) && n.Tag != "!!int" {
			c.fail(n, path, "must be an integer, not %s", describe(n))
		}
	}
}

func (c *shapeChecker) checkStruct(n *yaml.Node, t reflect.Type, path *field.Path) {
	fields := yamlshape.JSONFields(t)
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		key, value := n.Content[i], n.Content[i+1]
		ft, ok := fields[key.Value]
		if key.Kind != yaml.ScalarNode || !ok {
			c.fail(key, path, "unknown field %q", key.Value)
			continue
		}
		if seen[key.Value] {
			c.fail(key, path, "field %q is given twice", key.Value)
			continue
		}
		seen[key.Value] = true
		child := field.NewPath(key.Value)
		if path != nil {
			child = path.Child(key.Value)
		}
		c.lines[child.String()] = key.Line
		c.check(value, ft, child)
	}
}

func (c *shapeChecker) expect(n *yaml.Node, kind yaml.Kind, what string, path *field.Path) bool {
	if n.Kind != kind {
		c.fail(n, path, "must be %s, not %s", what, describe(n))
		return false
	}
	return true
}

func describe(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "an object"
	case yaml.SequenceNode:
		return "a list"
	}
	return fmt.Sprintf("%s %q", strings.TrimPrefix(n.Tag, "!!"), n.Value)
}
