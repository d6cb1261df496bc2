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

package apply

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"k8s.io/kops/channels/pkg/api"
)

// manifest is one addon's manifest, decoded: every object that could be read, and every problem
// found in it so far, each with the document (counted from 1) and line where it lies.
type manifest struct {
	source   string
	objects  []*manifestObject
	problems []documentProblem
}

// manifestObject is one object of a manifest and where it was written.
type manifestObject struct {
	*unstructured.Unstructured
	document int
	// lines holds the line of the document's first node ("") and of each key under metadata
	// ("metadata", "metadata.name", ...), so a problem names the line of its field.
	lines map[string]int
}

type documentProblem struct {
	document int
	api.Problem
}

// decodeManifest reads every non-empty document of a YAML stream into an object. Problems name the
// document and its line in the file, so the user can open the file there.
func decodeManifest(source string, data []byte) *manifest {
	m := &manifest{source: source}
	dec := yaml.NewDecoder(strings.NewReader(string(data)))
	seen := map[manifestKey]int{}
	for index := 1; ; index++ {
		var doc yaml.Node
		err := dec.Decode(&doc)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			// A syntax error stops the stream; yaml.v3's message carries the line.
			m.fail(index, 0, err)
			break
		}
		if len(doc.Content) == 0 || (doc.Content[0].Kind == yaml.ScalarNode && doc.Content[0].Tag == "!!null") {
			index-- // an empty document (comments, a stray ---) is not counted
			continue
		}
		root := doc.Content[0]
		obj, err := decodeObject(root)
		if err != nil {
			m.fail(index, root.Line, err)
			continue
		}
		// Server-side apply of the same object twice keeps the later one: a second policy binding
		// of the same name could quietly turn the first one's Deny into Audit.
		key := manifestKeyOf(obj)
		if first, ok := seen[key]; ok && key.name != "" {
			m.fail(index, root.Line, fmt.Errorf("%s is also document %d; an object may appear only once in a manifest", key, first))
			continue
		}
		seen[key] = index
		if err := checkProbe(obj); err != nil {
			m.fail(index, root.Line, err)
			continue
		}
		m.objects = append(m.objects, &manifestObject{Unstructured: obj, document: index, lines: metadataLines(root)})
	}
	return m
}

func (m *manifest) fail(document, line int, err error) {
	m.problems = append(m.problems, documentProblem{document: document, Problem: api.Problem{Line: line, Err: fmt.Errorf("document %d: %w", document, err)}})
}

// checkMetadata adds what the API server would refuse in the objects' metadata (see checkMetadata),
// and in that of the object of an enforcement probe, which is sent as a dry-run create.
func (m *manifest) checkMetadata(rules kindRules) {
	for _, o := range m.objects {
		errs := checkMetadata(o.Unstructured, rules)
		if value, ok := o.GetAnnotations()[api.EnforcementProbeAnnotation]; ok {
			if probe, err := api.ParseEnforcementProbe(value); err == nil { // else decodeManifest reported it
				prefix := fmt.Sprintf("metadata.annotations[%s].object.", api.EnforcementProbeAnnotation)
				for _, fe := range checkMetadata(&unstructured.Unstructured{Object: probe.Object}, rules) {
					fe.Field = prefix + fe.Field
					errs = append(errs, fe)
				}
			}
		}
		for _, fe := range errs {
			line, ok := o.lines[fe.Field]
			if !ok && strings.HasPrefix(fe.Field, "metadata.annotations[") {
				line, ok = o.lines["metadata.annotations"]
			}
			if !ok {
				line, ok = o.lines["metadata"]
			}
			if !ok {
				line = o.lines[""]
			}
			m.problems = append(m.problems, documentProblem{document: o.document, Problem: api.Problem{Line: line,
				Err: fmt.Errorf("document %d (%s): %w", o.document, manifestKeyOf(o.Unstructured), fe)}})
		}
	}
}

// err is every problem of the manifest in the order of its documents and lines, or nil.
func (m *manifest) err() error {
	if len(m.problems) == 0 {
		return nil
	}
	sort.SliceStable(m.problems, func(i, j int) bool {
		a, b := m.problems[i], m.problems[j]
		return a.document < b.document || (a.document == b.document && a.Line < b.Line)
	})
	fe := &api.FileError{Source: m.source}
	for _, p := range m.problems {
		fe.Problems = append(fe.Problems, p.Problem)
	}
	return fe
}

// unstructured are the manifest's objects, in order.
func (m *manifest) unstructured() []*unstructured.Unstructured {
	out := make([]*unstructured.Unstructured, 0, len(m.objects))
	for _, o := range m.objects {
		out = append(out, o.Unstructured)
	}
	return out
}

// metadataLines finds the lines of a document and of the keys under its metadata.
func metadataLines(root *yaml.Node) map[string]int {
	lines := map[string]int{"": root.Line}
	for i := 0; i+1 < len(root.Content); i += 2 {
		if root.Content[i].Value != "metadata" {
			continue
		}
		lines["metadata"] = root.Content[i].Line
		meta := root.Content[i+1]
		for j := 0; meta.Kind == yaml.MappingNode && j+1 < len(meta.Content); j += 2 {
			lines["metadata."+meta.Content[j].Value] = meta.Content[j].Line
		}
	}
	return lines
}

func decodeObject(n *yaml.Node) (*unstructured.Unstructured, error) {
	if n.Kind != yaml.MappingNode {
		return nil, errors.New("a document must be an object with apiVersion, kind and metadata.name")
	}
	var tree map[string]interface{}
	if err := n.Decode(&tree); err != nil {
		return nil, err
	}
	// A JSON round trip gives the types the API machinery expects (int64, float64, map[string]...)
	// and refuses what JSON cannot hold (non-string keys).
	js, err := json.Marshal(tree)
	if err != nil {
		return nil, err
	}
	u := &unstructured.Unstructured{}
	if err := u.UnmarshalJSON(js); err != nil {
		return nil, err
	}
	// metadata.name is checked with the rest of the metadata (checkMetadata).
	if u.GetAPIVersion() == "" || u.GetKind() == "" {
		return nil, errors.New("apiVersion and kind are required")
	}
	return u, nil
}

// manifestKey identifies an object on the server, whatever version of its kind a manifest uses.
type manifestKey struct {
	group, kind, namespace, name string
}

func manifestKeyOf(o *unstructured.Unstructured) manifestKey {
	gvk := o.GroupVersionKind()
	return manifestKey{group: gvk.Group, kind: gvk.Kind, namespace: o.GetNamespace(), name: o.GetName()}
}

func (k manifestKey) String() string {
	kind := k.kind
	if k.group != "" {
		kind += "." + k.group
	}
	if k.namespace != "" {
		return kind + " " + k.namespace + "/" + k.name
	}
	return kind + " " + k.name
}

var policyBindingKind = schema.GroupKind{Group: "admissionregistration.k8s.io", Kind: "ValidatingAdmissionPolicyBinding"}

// checkProbe refuses an enforcement probe that channels could not run: on another kind than a
// policy binding, or malformed. A bad probe found only mid-apply would leave the addon half done.
func checkProbe(o *unstructured.Unstructured) error {
	value, ok := o.GetAnnotations()[api.EnforcementProbeAnnotation]
	if !ok {
		return nil
	}
	if o.GroupVersionKind().GroupKind() != policyBindingKind {
		return fmt.Errorf("annotation %s belongs on a ValidatingAdmissionPolicyBinding, not on %s", api.EnforcementProbeAnnotation, manifestKeyOf(o))
	}
	if policy, _, _ := unstructured.NestedString(o.Object, "spec", "policyName"); policy == "" {
		return fmt.Errorf("%s has annotation %s but no spec.policyName", manifestKeyOf(o), api.EnforcementProbeAnnotation)
	}
	_, err := api.ParseEnforcementProbe(value)
	return err
}
