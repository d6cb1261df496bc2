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

package kopscodecs

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"

	"go.yaml.in/yaml/v3"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/util/validation/field"
	sigsjson "sigs.k8s.io/json"

	"k8s.io/kops/pkg/apis/kops"
)

// Object is one decoded document: exactly one of Cluster, InstanceGroup, SSHCredential and Addon
// (any other object, stored as an additional object of the cluster) is set.
type Object struct {
	Cluster       *kops.Cluster
	InstanceGroup *kops.InstanceGroup
	SSHCredential *kops.SSHCredential
	Addon         *unstructured.Unstructured

	doc   docRef
	lines map[string]int
}

type Warning struct {
	Source string
	Line   int
	Text   string
}

func (w Warning) String() string {
	if w.Line == 0 {
		return fmt.Sprintf("%s: %s", w.Source, w.Text)
	}
	return fmt.Sprintf("%s:%d: %s", w.Source, w.Line, w.Text)
}

// Decode reads every document of a stream, source naming it in messages. Documents other than a
// Cluster or InstanceGroup need allowOthers. All problems in all documents are returned together.
func Decode(source string, data []byte, allowOthers bool) ([]*Object, []Warning, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var objects []*Object
	var warnings []Warning
	problems := &DecodeError{Source: source}
	for index := 1; ; index++ {
		var root yaml.Node
		err := dec.Decode(&root)
		if errors.Is(err, io.EOF) {
			break
		}
		doc := docRef{source: source, index: index}
		if err != nil {
			problems.add(doc, 0, fmt.Errorf("malformed YAML: %s", strings.TrimPrefix(err.Error(), "yaml: ")))
			break
		}
		if len(root.Content) == 0 || isNull(root.Content[0]) {
			continue
		}
		if err := checkAliases(root.Content[0]); err != nil {
			problems.add(doc, root.Content[0].Line, err)
			continue
		}
		obj, w := decodeDocument(root.Content[0], doc, allowOthers, problems)
		warnings = append(warnings, w...)
		if obj != nil {
			objects = append(objects, obj)
		}
	}
	if len(problems.Problems) > 0 {
		return nil, warnings, problems
	}
	return objects, warnings, nil
}

func decodeDocument(n *yaml.Node, doc docRef, allowOthers bool, problems *DecodeError) (*Object, []Warning) {
	doc.line = n.Line
	if n.Kind != yaml.MappingNode {
		problems.add(doc, n.Line, errors.New("a document must be an object with apiVersion and kind"))
		return nil, nil
	}
	apiVersion, kind, name := scalarAt(n, "apiVersion"), scalarAt(n, "kind"), nestedScalar(n, "metadata", "name")
	doc.kind, doc.name = kind, name
	switch {
	case apiVersion == "" || kind == "":
		problems.add(doc, n.Line, errors.New("apiVersion and kind are required"))
		return nil, nil
	case kind == kops.KindSSHCredential && !allowOthers:
		problems.add(doc, n.Line, fmt.Errorf("kind %s is accepted by 'kops create -f' only; it is not stored as a document", kind))
		return nil, nil
	case kind == kops.KindCluster || kind == kops.KindInstanceGroup || kind == kops.KindSSHCredential:
		if apiVersion != kops.GroupVersion {
			problems.add(doc, n.Line, fmt.Errorf("apiVersion %q is not supported for kind %s; use %s", apiVersion, kind, kops.GroupVersion))
			return nil, nil
		}
	case strings.HasPrefix(apiVersion, "kops.k8s.io/"):
		problems.add(doc, n.Line, fmt.Errorf("kind %q of %s is not supported; use %s, %s or %s", kind, apiVersion,
			kops.KindCluster, kops.KindInstanceGroup, kops.KindSSHCredential))
		return nil, nil
	case !allowOthers:
		problems.add(doc, n.Line, fmt.Errorf("kind %s (%s) is not expected here: only a %s or an %s is", kind, apiVersion,
			kops.KindCluster, kops.KindInstanceGroup))
		return nil, nil
	default:
		return decodeAddon(n, doc, problems), nil
	}

	obj := &Object{doc: doc}
	var target interface{}
	var unmodeled *kops.Unmodeled
	switch kind {
	case kops.KindCluster:
		obj.Cluster = &kops.Cluster{}
		target, unmodeled = obj.Cluster, &obj.Cluster.Unmodeled
	case kops.KindInstanceGroup:
		obj.InstanceGroup = &kops.InstanceGroup{}
		target, unmodeled = obj.InstanceGroup, &obj.InstanceGroup.Unmodeled
	default:
		// An SSHCredential is not written back as a document, so refuse fields it does not model.
		obj.SSHCredential = &kops.SSHCredential{}
		target, unmodeled = obj.SSHCredential, new(kops.Unmodeled)
	}
	c := &checker{lines: map[string]int{}}
	c.check(n, reflect.TypeOf(target).Elem(), location{})
	obj.lines = c.lines
	if obj.SSHCredential != nil {
		for _, f := range c.unmodeled {
			c.errs = append(c.errs, field.NotSupported(pathOf(f.Path), f.Path[len(f.Path)-1].Key, []string{"spec.publicKey"}))
		}
		c.unmodeled = nil
	}
	if len(c.errs) > 0 {
		problems.addFieldErrors(doc, c.errs, c.lines)
		return nil, nil
	}
	if err := decodeInto(n, target); err != nil {
		problems.add(doc, n.Line, err)
		return nil, nil
	}
	*unmodeled = c.unmodeled
	warnings := make([]Warning, 0, len(c.unmodeled))
	for _, f := range c.unmodeled {
		line := c.lines[f.Path.String()]
		warnings = append(warnings, Warning{Source: doc.source, Line: line,
			Text: fmt.Sprintf("%s %q: field %s is not modeled by this build; it is kept as written", kind, name, f.Path)})
	}
	return obj, warnings
}

func decodeAddon(n *yaml.Node, doc docRef, problems *DecodeError) *Object {
	u := &unstructured.Unstructured{}
	if err := decodeInto(n, &u.Object); err != nil {
		problems.add(doc, n.Line, err)
		return nil
	}
	if u.GetName() == "" && !IsComponentConfig(u) {
		problems.add(doc, n.Line, errors.New("metadata.name is required"))
		return nil
	}
	lines := map[string]int{}
	recordLines(n, nil, lines, maxLineDepth)
	return &Object{Addon: u, doc: doc, lines: lines}
}

// maxLineDepth bounds recordLines: each path string repeats its parent's, so a deeply nested
// `[[[[...]]]]` would otherwise exhaust memory. Deeper problems get their nearest ancestor's line.
const maxLineDepth = 32

// recordLines notes lines below n so problems in objects of no modeled type can name their line.
func recordLines(n *yaml.Node, at *field.Path, lines map[string]int, depth int) {
	if depth == 0 {
		return
	}
	switch n.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			key := n.Content[i].Value
			child := field.NewPath(key)
			if at != nil {
				child = at.Child(key)
			}
			lines[child.String()] = n.Content[i].Line
			recordLines(n.Content[i+1], child, lines, depth-1)
		}
	case yaml.SequenceNode:
		for i, item := range n.Content {
			if at == nil {
				continue
			}
			child := at.Index(i)
			lines[child.String()] = item.Line
			recordLines(item, child, lines, depth-1)
		}
	}
}

// IsComponentConfig says whether u configures a component (KubeSchedulerConfiguration) rather than
// being an API object; kops keeps such objects but never applies them.
func IsComponentConfig(u *unstructured.Unstructured) bool {
	return strings.HasSuffix(u.GroupVersionKind().Group, ".config.k8s.io")
}

// decodeInto decodes through JSON, as Kubernetes does, with case-sensitive field names.
func decodeInto(n *yaml.Node, target interface{}) error {
	var v interface{}
	if err := n.Decode(&v); err != nil {
		return err
	}
	b, err := jsonMarshal(normalize(v))
	if err != nil {
		return err
	}
	return sigsjson.UnmarshalCaseSensitivePreserveInts(b, target)
}

// Describe names the document: `document 2 (InstanceGroup "nodes")`.
func (o *Object) Describe() string { return o.doc.String() }

func (o *Object) Where() string { return fmt.Sprintf("%s:%d (%s)", o.doc.source, o.doc.line, o.doc) }

// WithoutLines drops lines, for a document no user wrote (one made by --set).
func (o *Object) WithoutLines() *Object {
	c := *o
	c.lines = nil
	c.doc.line = 0
	return &c
}

func (o *Object) Problem(err error) error {
	d := &DecodeError{Source: o.doc.source}
	d.add(o.doc, o.doc.line, err)
	return d
}

// FieldErrors locates validation errors like decoding errors, with lines.
func (o *Object) FieldErrors(errs field.ErrorList) error {
	if len(errs) == 0 {
		return nil
	}
	d := &DecodeError{Source: o.doc.source}
	d.addFieldErrors(o.doc, errs, o.lines)
	return d
}

func pathOf(p kops.FieldPath) *field.Path {
	var out *field.Path
	for _, e := range p {
		switch {
		case e.IsIndex:
			out = out.Index(e.Index)
		case out == nil:
			out = field.NewPath(e.Key)
		default:
			out = out.Child(e.Key)
		}
	}
	return out
}

func scalarAt(n *yaml.Node, key string) string {
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key && n.Content[i+1].Kind == yaml.ScalarNode {
			return n.Content[i+1].Value
		}
	}
	return ""
}

func nestedScalar(n *yaml.Node, outer, inner string) string {
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == outer && n.Content[i+1].Kind == yaml.MappingNode {
			return scalarAt(n.Content[i+1], inner)
		}
	}
	return ""
}
