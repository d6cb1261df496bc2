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

package operator

import (
	"encoding/json"
	"fmt"

	"sigs.k8s.io/yaml"

	"k8s.io/kops/pkg/kubemanifest"
)

// ManagedObjects decodes manifest strictly and returns d's managed objects as JSON maps in the
// order of d.Managed. It errors if one is missing or breaks its kind's rendering check.
func (d *Descriptor) ManagedObjects(manifest []byte) ([]map[string]interface{}, error) {
	objects, err := kubemanifest.DecodeStrict(manifest)
	if err != nil {
		return nil, fmt.Errorf("reading the %s manifest the policy is derived from: %w", d.Subject, err)
	}
	out := make([]map[string]interface{}, len(d.Managed))
	for _, o := range objects {
		if o.Typed.GetNamespace() != d.WatchNamespace {
			continue
		}
		for i, m := range d.Managed {
			if m.Kind != o.Kind || m.Name != o.Typed.GetName() {
				continue
			}
			if err := checkRendered(m.Kind, o.Typed); err != nil {
				return nil, fmt.Errorf("the %s manifest the policy is derived from: %w", d.Subject, err)
			}
			// The document as written: re-marshalling the typed struct adds fields the server never stores.
			data, err := yaml.YAMLToJSON(o.Raw)
			if err != nil {
				return nil, err
			}
			var obj map[string]interface{}
			if err := json.Unmarshal(data, &obj); err != nil {
				return nil, err
			}
			out[i] = obj
		}
	}
	for i, m := range d.Managed {
		if out[i] == nil {
			return nil, fmt.Errorf("the %s manifest the policy is derived from has no %s %s/%s", d.Subject, m.Kind, d.WatchNamespace, m.Name)
		}
	}
	return out, nil
}
