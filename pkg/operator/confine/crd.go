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

package confine

import (
	"encoding/json"
	"fmt"
	"strings"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"sigs.k8s.io/yaml"

	"k8s.io/kops/pkg/crdschema"
)

// CustomResourceDefinition is the CRD of the operator's instructions, its schema derived from
// CRD.Type and CRDFields. It has no short names or categories: `kubectl get all` must not list
// it, and `po` must stay pods.
func (d *Descriptor) CustomResourceDefinition() (*apiextensionsv1.CustomResourceDefinition, error) {
	if d.CRD.Type == nil {
		return nil, fmt.Errorf("operator descriptor %q: CRD.Type: required to generate the CRD", d.AddonName)
	}
	schema, err := crdschema.Schema(d.CRD.Type, d.CRDFields)
	if err != nil {
		return nil, fmt.Errorf("operator descriptor %q: %w", d.AddonName, err)
	}
	version := apiextensionsv1.CustomResourceDefinitionVersion{
		Name:                     d.CRD.Version,
		Served:                   true,
		Storage:                  true,
		Schema:                   &apiextensionsv1.CustomResourceValidation{OpenAPIV3Schema: schema},
		AdditionalPrinterColumns: append([]apiextensionsv1.CustomResourceColumnDefinition(nil), d.CRDColumns...),
	}
	if _, ok := schema.Properties["status"]; ok {
		version.Subresources = &apiextensionsv1.CustomResourceSubresources{Status: &apiextensionsv1.CustomResourceSubresourceStatus{}}
	}
	crd := &apiextensionsv1.CustomResourceDefinition{Spec: apiextensionsv1.CustomResourceDefinitionSpec{
		Group: d.CRD.Group,
		Names: apiextensionsv1.CustomResourceDefinitionNames{
			Kind:     d.CRD.Kind,
			ListKind: d.CRD.Kind + "List",
			Plural:   d.CRD.Resource,
			Singular: strings.ToLower(d.CRD.Kind),
		},
		Scope:    apiextensionsv1.NamespaceScoped,
		Versions: []apiextensionsv1.CustomResourceDefinitionVersion{version},
	}}
	crd.APIVersion, crd.Kind = "apiextensions.k8s.io/v1", "CustomResourceDefinition"
	crd.Name, crd.Labels = d.CRD.Name(), d.packageLabels()
	return crd, nil
}

// customResourceDefinitionObject drops the empty status and creationTimestamp typed objects carry.
func (d *Descriptor) customResourceDefinitionObject() (map[string]interface{}, error) {
	crd, err := d.CustomResourceDefinition()
	if err != nil {
		return nil, err
	}
	spec, err := toObject(crd.Spec)
	if err != nil {
		return nil, err
	}
	return map[string]interface{}{
		"apiVersion": crd.APIVersion,
		"kind":       crd.Kind,
		"metadata":   map[string]interface{}{"name": crd.Name, "labels": stringsObject(crd.Labels)},
		"spec":       spec,
	}, nil
}

func toObject(v interface{}) (map[string]interface{}, error) {
	data, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var out map[string]interface{}
	if err := json.Unmarshal(data, &out); err != nil {
		return nil, err
	}
	return out, nil
}

func stringsObject(m map[string]string) map[string]interface{} {
	out := make(map[string]interface{}, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// CustomResourceDefinitionManifest is the CRD as YAML with sorted keys, without the addon's labels.
func (d *Descriptor) CustomResourceDefinitionManifest() ([]byte, error) {
	obj, err := d.customResourceDefinitionObject()
	if err != nil {
		return nil, err
	}
	return yaml.Marshal(obj)
}
