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
	"bytes"
	"encoding/json"
	"fmt"

	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/yaml"
)

// RBACObjects returns a Role and RoleBinding per namespace of Rights, in order of first
// appearance. Nothing is cluster-scoped: a ClusterRoleBinding would grant the rights everywhere.
func (d *Descriptor) RBACObjects() []runtime.Object {
	var namespaces []string
	rules := map[string][]rbacv1.PolicyRule{}
	for _, r := range d.Rights {
		if _, seen := rules[r.Namespace]; !seen {
			namespaces = append(namespaces, r.Namespace)
		}
		rules[r.Namespace] = append(rules[r.Namespace], r.PolicyRule())
	}

	var objects []runtime.Object
	for _, ns := range namespaces {
		meta := metav1.ObjectMeta{Name: d.RBACName, Namespace: ns, Labels: d.Labels()}
		objects = append(objects,
			&rbacv1.Role{
				TypeMeta:   metav1.TypeMeta{APIVersion: "rbac.authorization.k8s.io/v1", Kind: "Role"},
				ObjectMeta: meta,
				Rules:      rules[ns],
			},
			&rbacv1.RoleBinding{
				TypeMeta:   metav1.TypeMeta{APIVersion: "rbac.authorization.k8s.io/v1", Kind: "RoleBinding"},
				ObjectMeta: *meta.DeepCopy(),
				RoleRef:    rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "Role", Name: d.RBACName},
				Subjects:   []rbacv1.Subject{{Kind: rbacv1.ServiceAccountKind, Name: d.ServiceAccount, Namespace: d.Namespace}},
			})
	}
	return objects
}

// RBACManifest is RBACObjects as a YAML stream with sorted keys, so the addon's hash only changes
// when Rights does.
func (d *Descriptor) RBACManifest() ([]byte, error) {
	return manifest(d.RBACObjects())
}

func manifest(objects []runtime.Object) ([]byte, error) {
	var b bytes.Buffer
	for i, obj := range objects {
		y, err := marshalWithoutStatus(obj)
		if err != nil {
			return nil, fmt.Errorf("marshalling %s: %w", obj.GetObjectKind().GroupVersionKind().Kind, err)
		}
		if i > 0 {
			b.WriteString("---\n")
		}
		b.Write(y)
	}
	return b.Bytes(), nil
}

// marshalWithoutStatus drops the empty status typed structs carry.
func marshalWithoutStatus(obj runtime.Object) ([]byte, error) {
	j, err := json.Marshal(obj)
	if err != nil {
		return nil, err
	}
	var tree map[string]interface{}
	if err := json.Unmarshal(j, &tree); err != nil {
		return nil, err
	}
	delete(tree, "status")
	return yaml.Marshal(tree)
}
