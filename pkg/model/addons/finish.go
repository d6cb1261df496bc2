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

package addons

import (
	"bytes"
	"fmt"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/yaml"

	channelsapi "k8s.io/kops/channels/pkg/api"
	"k8s.io/kops/pkg/assets"
	"k8s.io/kops/pkg/kubemanifest"
)

// Addons built from objects go through finishObject and encodeObjects; a template's rendering is
// already finished, and is not rewritten because its bytes must equal the operator's. The tests
// hold both to checkFinished; it is not run on every update because decoding every manifest again
// is costly (docs/performance.md).

// images says how finishObject treats the images of an object.
type images struct {
	remapper *assets.Remapper
	// pinned refuses an image not pinned by tag or digest (":latest" included).
	pinned bool
	// override replaces the first container's image.
	override string
}

// finishObject labels obj for addon and remaps (and checks) its pod spec's images.
func finishObject(obj *unstructured.Unstructured, addon string, im images) error {
	labels := obj.GetLabels()
	if labels == nil {
		labels = map[string]string{}
	}
	labels[channelsapi.LabelAddonName] = addon
	labels[channelsapi.LabelManagedBy] = "kops"
	obj.SetLabels(labels)
	return finishImages(obj, im)
}

func finishImages(obj *unstructured.Unstructured, im images) error {
	path, ok := kubemanifest.PodSpecPath(obj.GetKind())
	if !ok {
		return nil
	}
	for _, field := range []string{"initContainers", "containers"} {
		containers, _, err := unstructured.NestedSlice(obj.Object, append(path, field)...)
		if err != nil {
			return err
		}
		for i, c := range containers {
			container, ok := c.(map[string]interface{})
			if !ok {
				return fmt.Errorf("%s[%d] is not an object", field, i)
			}
			image, _ := container["image"].(string)
			if field == "containers" && i == 0 && im.override != "" {
				image = im.override
			}
			if im.pinned {
				if err := channelsapi.ValidatePinnedImage(image); err != nil {
					return fmt.Errorf("%s[%d]: %w", field, i, err)
				}
			}
			remapped, err := im.remapper.RemapImage(image)
			if err != nil {
				return fmt.Errorf("%s[%d]: %w", field, i, err)
			}
			container["image"] = remapped
		}
		if len(containers) > 0 {
			if err := unstructured.SetNestedSlice(obj.Object, containers, append(path, field)...); err != nil {
				return err
			}
		}
	}
	return nil
}

// encodeObjects joins objects into one YAML stream with sorted keys.
func encodeObjects(objs []*unstructured.Unstructured) ([]byte, error) {
	var out bytes.Buffer
	for _, o := range objs {
		data, err := yaml.Marshal(o.Object)
		if err != nil {
			return nil, fmt.Errorf("encoding %s %q: %w", o.GetKind(), o.GetName(), err)
		}
		writeDoc(&out, data)
	}
	return out.Bytes(), nil
}

func writeDoc(out *bytes.Buffer, doc []byte) {
	if out.Len() > 0 {
		out.WriteString("---\n")
	}
	out.Write(bytes.TrimLeft(doc, "\n"))
	if !bytes.HasSuffix(doc, []byte("\n")) {
		out.WriteByte('\n')
	}
}

// isDefaultAccountLock says whether obj is a partial default ServiceAccount kops only locks. The
// controller-manager owns it, so it carries no addon label: no retirement or prune may delete it.
func isDefaultAccountLock(obj *unstructured.Unstructured) bool {
	if obj.GetAPIVersion() != "v1" || obj.GetKind() != "ServiceAccount" || obj.GetName() != "default" {
		return false
	}
	for k := range obj.Object {
		if k != "apiVersion" && k != "kind" && k != "metadata" && k != "automountServiceAccountToken" {
			return false
		}
	}
	return true
}

// checkFinished checks what finishObject guarantees on a written manifest: labels and remapped images.
func checkFinished(a *Addon, remapper *assets.Remapper) error {
	docs, err := kubemanifest.Split(a.Manifest)
	if err != nil {
		return fmt.Errorf("addon %s: %w", a.Spec.Name, err)
	}
	var problems []string
	for i, doc := range docs {
		obj := &unstructured.Unstructured{}
		if err := yaml.Unmarshal(doc, &obj.Object); err != nil {
			return fmt.Errorf("addon %s, document %d: %w", a.Spec.Name, i+1, err)
		}
		labels := obj.GetLabels()
		if isDefaultAccountLock(obj) {
			if len(labels) > 0 {
				problems = append(problems, fmt.Sprintf("ServiceAccount %s/default: a default account must carry no labels, or channels could retire it", obj.GetNamespace()))
			}
			continue
		}
		if labels[channelsapi.LabelAddonName] != a.Spec.Name || labels[channelsapi.LabelManagedBy] != "kops" {
			problems = append(problems, fmt.Sprintf("%s %s: labels %s=%q and %s=%q are missing", obj.GetKind(), obj.GetName(), channelsapi.LabelAddonName, a.Spec.Name, channelsapi.LabelManagedBy, "kops"))
		}
	}
	uses, err := kubemanifest.Images(a.Manifest)
	if err != nil {
		return fmt.Errorf("addon %s: %w", a.Spec.Name, err)
	}
	for _, u := range uses {
		remapped, err := remapper.RemapImage(u.Image)
		switch {
		case err != nil:
			problems = append(problems, fmt.Sprintf("%s %s: %v", u.Object, u.Field, err))
		case remapped != u.Image:
			problems = append(problems, fmt.Sprintf("%s %s: image %s is not remapped (want %s)", u.Object, u.Field, u.Image, remapped))
		}
	}
	if len(problems) > 0 {
		return fmt.Errorf("addon %s is not finished: %v", a.Spec.Name, problems)
	}
	return nil
}
