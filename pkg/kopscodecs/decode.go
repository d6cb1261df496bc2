// Package kopscodecs reads and writes kops.k8s.io/v1alpha2 documents. Decoding checks every field
// against the Go types first, so that all problems are reported at once with their path and line,
// and keeps fields this build does not model so that encoding writes them back unchanged.
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

// Object is one decoded document of a YAML stream: exactly one of Cluster, InstanceGroup and Addon
// is set. Addon holds any other Kubernetes object, which kops stores as a cluster addon.
type Object struct {
	Cluster       *kops.Cluster
	InstanceGroup *kops.InstanceGroup
	Addon         *unstructured.Unstructured

	doc   docRef
	lines map[string]int
}

// Warning is something worth telling the user that does not stop the command.
type Warning struct {
	Source string
	Line   int
	Text   string
}

func (w Warning) String() string {
	return fmt.Sprintf("%s:%d: %s", w.Source, w.Line, w.Text)
}

// Decode reads every document of a YAML stream. source names the stream in messages (a file name
// or a state-store path). Documents that are neither a Cluster nor an InstanceGroup are accepted as
// addon objects only when allowAddons is set. All problems in all documents are returned together.
func Decode(source string, data []byte, allowAddons bool) ([]*Object, []Warning, error) {
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
		obj, w := decodeDocument(root.Content[0], doc, allowAddons, problems)
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

func decodeDocument(n *yaml.Node, doc docRef, allowAddons bool, problems *DecodeError) (*Object, []Warning) {
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
	case kind == kops.KindCluster || kind == kops.KindInstanceGroup:
		if apiVersion != kops.GroupVersion {
			problems.add(doc, n.Line, fmt.Errorf("apiVersion %q is not supported for kind %s; use %s", apiVersion, kind, kops.GroupVersion))
			return nil, nil
		}
	case strings.HasPrefix(apiVersion, "kops.k8s.io/"):
		problems.add(doc, n.Line, fmt.Errorf("kind %q of %s is not supported; use %s or %s", kind, apiVersion, kops.KindCluster, kops.KindInstanceGroup))
		return nil, nil
	case !allowAddons:
		problems.add(doc, n.Line, fmt.Errorf("kind %s (%s) is not a kops object; other objects are accepted as cluster addons only with the ClusterAddons feature flag", kind, apiVersion))
		return nil, nil
	default:
		return decodeAddon(n, doc, problems), nil
	}

	obj := &Object{doc: doc}
	var target interface{}
	var unmodeled *kops.Unmodeled
	if kind == kops.KindCluster {
		obj.Cluster = &kops.Cluster{}
		target, unmodeled = obj.Cluster, &obj.Cluster.Unmodeled
	} else {
		obj.InstanceGroup = &kops.InstanceGroup{}
		target, unmodeled = obj.InstanceGroup, &obj.InstanceGroup.Unmodeled
	}
	c := &checker{lines: map[string]int{}}
	c.check(n, reflect.TypeOf(target).Elem(), location{})
	obj.lines = c.lines
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
	if u.GetName() == "" {
		problems.add(doc, n.Line, errors.New("metadata.name is required"))
		return nil
	}
	return &Object{Addon: u, doc: doc}
}

// decodeInto decodes a checked node into a Go value through JSON, as Kubernetes decodes YAML, with
// case-sensitive field names.
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

// Describe names the document for messages: `document 2 (InstanceGroup "nodes")`.
func (o *Object) Describe() string { return o.doc.String() }

// FieldErrors turns errors found later, by validation, into the same located form as decoding
// errors, so that the user sees the line of each problem.
func (o *Object) FieldErrors(errs field.ErrorList) error {
	if len(errs) == 0 {
		return nil
	}
	d := &DecodeError{Source: o.doc.source}
	d.addFieldErrors(o.doc, errs, o.lines)
	return d
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
