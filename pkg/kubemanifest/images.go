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

package kubemanifest

import (
	"fmt"
	"strings"

	"sigs.k8s.io/yaml"
)

type ImageUse struct {
	// Object is Kind/namespace/name (Kind/name when cluster-scoped).
	Object string
	Field  string
	Image  string
}

var podSpecPaths = map[string][]string{
	"Pod":                   {"spec"},
	"PodTemplate":           {"template", "spec"},
	"Deployment":            {"spec", "template", "spec"},
	"DaemonSet":             {"spec", "template", "spec"},
	"StatefulSet":           {"spec", "template", "spec"},
	"ReplicaSet":            {"spec", "template", "spec"},
	"ReplicationController": {"spec", "template", "spec"},
	"Job":                   {"spec", "template", "spec"},
	"CronJob":               {"spec", "jobTemplate", "spec", "template", "spec"},
}

// Images lists, in document order, the images of workloads' containers and of addons.x-k8s.io
// objects' spec.image.
func Images(data []byte) ([]ImageUse, error) {
	docs, err := Split(data)
	if err != nil {
		return nil, err
	}
	var uses []ImageUse
	for i, doc := range docs {
		var obj map[string]interface{}
		if err := yaml.Unmarshal(doc, &obj); err != nil {
			return nil, fmt.Errorf("document %d: %w", i+1, err)
		}
		kind, _ := obj["kind"].(string)
		key := objectKey(kind, obj)
		if path, ok := podSpecPaths[kind]; ok {
			pod, ok := lookup(obj, path)
			if !ok {
				continue
			}
			podMap, ok := pod.(map[string]interface{})
			if !ok {
				return nil, fmt.Errorf("document %d (%s): %s is not an object", i+1, key, joinPath(path))
			}
			for _, list := range []string{"initContainers", "containers", "ephemeralContainers"} {
				containers, _ := podMap[list].([]interface{})
				for j, c := range containers {
					cm, _ := c.(map[string]interface{})
					image, ok := cm["image"].(string)
					if !ok {
						return nil, fmt.Errorf("document %d (%s): %s.%s[%d] has no image", i+1, key, joinPath(path), list, j)
					}
					uses = append(uses, ImageUse{Object: key, Field: fmt.Sprintf("%s.%s[%d].image", joinPath(path), list, j), Image: image})
				}
			}
			continue
		}
		if group(obj) == "addons.x-k8s.io" {
			if image, ok := lookup(obj, []string{"spec", "image"}); ok {
				s, ok := image.(string)
				if !ok {
					return nil, fmt.Errorf("document %d (%s): spec.image is not a string", i+1, key)
				}
				uses = append(uses, ImageUse{Object: key, Field: "spec.image", Image: s})
			}
		}
	}
	return uses, nil
}

func lookup(obj map[string]interface{}, path []string) (interface{}, bool) {
	var cur interface{} = obj
	for _, p := range path {
		m, ok := cur.(map[string]interface{})
		if !ok {
			return nil, false
		}
		if cur, ok = m[p]; !ok {
			return nil, false
		}
	}
	return cur, cur != nil
}

func joinPath(path []string) string { return strings.Join(path, ".") }

func group(obj map[string]interface{}) string {
	apiVersion, _ := obj["apiVersion"].(string)
	g, _, found := strings.Cut(apiVersion, "/")
	if !found {
		return ""
	}
	return g
}

func objectKey(kind string, obj map[string]interface{}) string {
	name, _ := lookup(obj, []string{"metadata", "name"})
	ns, _ := lookup(obj, []string{"metadata", "namespace"})
	if s, ok := ns.(string); ok && s != "" {
		return fmt.Sprintf("%s/%s/%v", kind, s, name)
	}
	return fmt.Sprintf("%s/%v", kind, name)
}

func PodSpecPath(kind string) ([]string, bool) {
	path, ok := podSpecPaths[kind]
	return append([]string(nil), path...), ok
}
