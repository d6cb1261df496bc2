package apply

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"go.yaml.in/yaml/v3"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"k8s.io/kops/channels/pkg/api"
)

// decodeManifest reads every non-empty document of a YAML stream into an object. Problems name the
// document (counted from 1) and its line in the file, so the user can open the file there.
func decodeManifest(source string, data []byte) ([]*unstructured.Unstructured, error) {
	dec := yaml.NewDecoder(strings.NewReader(string(data)))
	var objs []*unstructured.Unstructured
	fileErr := &api.FileError{Source: source}
	seen := map[manifestKey]int{}
	for index := 1; ; index++ {
		var doc yaml.Node
		err := dec.Decode(&doc)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			// A syntax error stops the stream; yaml.v3's message carries the line.
			fileErr.Problems = append(fileErr.Problems, api.Problem{Err: fmt.Errorf("document %d: %w", index, err)})
			break
		}
		if len(doc.Content) == 0 || (doc.Content[0].Kind == yaml.ScalarNode && doc.Content[0].Tag == "!!null") {
			index-- // an empty document (comments, a stray ---) is not counted
			continue
		}
		obj, err := decodeObject(doc.Content[0])
		if err != nil {
			fileErr.Problems = append(fileErr.Problems, api.Problem{Line: doc.Content[0].Line, Err: fmt.Errorf("document %d: %w", index, err)})
			continue
		}
		// Server-side apply of the same object twice keeps the later one: a second policy binding
		// of the same name could quietly turn the first one's Deny into Audit.
		key := manifestKeyOf(obj)
		if first, ok := seen[key]; ok {
			fileErr.Problems = append(fileErr.Problems, api.Problem{Line: doc.Content[0].Line,
				Err: fmt.Errorf("document %d: %s is also document %d; an object may appear only once in a manifest", index, key, first)})
			continue
		}
		seen[key] = index
		if err := checkProbe(obj); err != nil {
			fileErr.Problems = append(fileErr.Problems, api.Problem{Line: doc.Content[0].Line, Err: fmt.Errorf("document %d: %w", index, err)})
			continue
		}
		objs = append(objs, obj)
	}
	if len(fileErr.Problems) > 0 {
		return nil, fileErr
	}
	return objs, nil
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
	if u.GetAPIVersion() == "" || u.GetKind() == "" || u.GetName() == "" {
		return nil, errors.New("apiVersion, kind and metadata.name are required")
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
