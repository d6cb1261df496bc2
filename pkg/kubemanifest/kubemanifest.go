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
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	appsv1 "k8s.io/api/apps/v1"
	coordinationv1 "k8s.io/api/coordination/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	sigsjson "sigs.k8s.io/json"
	"sigs.k8s.io/yaml"
)

type Object struct {
	metav1.TypeMeta
	Typed metav1.Object
	Raw   []byte
}

// Key is Kind/namespace/name, or Kind/name for cluster-scoped objects.
func (o *Object) Key() string {
	if ns := o.Typed.GetNamespace(); ns != "" {
		return o.Kind + "/" + ns + "/" + o.Typed.GetName()
	}
	return o.Kind + "/" + o.Typed.GetName()
}

var typed = map[string]func() metav1.Object{
	"v1/Namespace":      func() metav1.Object { return &corev1.Namespace{} },
	"v1/ServiceAccount": func() metav1.Object { return &corev1.ServiceAccount{} },
	"v1/ConfigMap":      func() metav1.Object { return &corev1.ConfigMap{} },
	"v1/Secret":         func() metav1.Object { return &corev1.Secret{} },
	"v1/Service":        func() metav1.Object { return &corev1.Service{} },
	"rbac.authorization.k8s.io/v1/ClusterRole":        func() metav1.Object { return &rbacv1.ClusterRole{} },
	"rbac.authorization.k8s.io/v1/ClusterRoleBinding": func() metav1.Object { return &rbacv1.ClusterRoleBinding{} },
	"rbac.authorization.k8s.io/v1/Role":               func() metav1.Object { return &rbacv1.Role{} },
	"rbac.authorization.k8s.io/v1/RoleBinding":        func() metav1.Object { return &rbacv1.RoleBinding{} },
	"apps/v1/Deployment":                              func() metav1.Object { return &appsv1.Deployment{} },
	"apps/v1/DaemonSet":                               func() metav1.Object { return &appsv1.DaemonSet{} },
	"admissionregistration.k8s.io/v1/ValidatingAdmissionPolicy": func() metav1.Object {
		return &admissionregistrationv1.ValidatingAdmissionPolicy{}
	},
	"admissionregistration.k8s.io/v1/ValidatingAdmissionPolicyBinding": func() metav1.Object {
		return &admissionregistrationv1.ValidatingAdmissionPolicyBinding{}
	},
	"apiextensions.k8s.io/v1/CustomResourceDefinition": func() metav1.Object {
		return &apiextensionsv1.CustomResourceDefinition{}
	},
	"policy/v1/PodDisruptionBudget":        func() metav1.Object { return &policyv1.PodDisruptionBudget{} },
	"coordination.k8s.io/v1/Lease":         func() metav1.Object { return &coordinationv1.Lease{} },
	"apiregistration.k8s.io/v1/APIService": func() metav1.Object { return &APIService{} },
	"cert-manager.io/v1/Certificate":       func() metav1.Object { return &Certificate{} },
}

func Split(data []byte) ([][]byte, error) {
	r := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(data)))
	var docs [][]byte
	for {
		doc, err := r.Read()
		if errors.Is(err, io.EOF) {
			return docs, nil
		}
		if err != nil {
			return nil, err
		}
		if len(bytes.TrimSpace(stripComments(doc))) > 0 {
			docs = append(docs, doc)
		}
	}
}

// Kinds maps "apiVersion/Kind" to a constructor, for kinds DecodeStrict does not know.
type Kinds map[string]func() metav1.Object

// DecodeStrict rejects unknown and duplicate fields and kinds with no struct.
func DecodeStrict(data []byte, extra ...Kinds) ([]*Object, error) {
	docs, err := Split(data)
	if err != nil {
		return nil, err
	}
	objs := make([]*Object, 0, len(docs))
	for i, doc := range docs {
		js, err := yaml.YAMLToJSONStrict(doc)
		if err != nil {
			return nil, fmt.Errorf("document %d: %w", i+1, err)
		}
		var tm metav1.TypeMeta
		if err := sigsjson.UnmarshalCaseSensitivePreserveInts(js, &tm); err != nil {
			return nil, fmt.Errorf("document %d: %w", i+1, err)
		}
		newTyped, ok := typed[tm.APIVersion+"/"+tm.Kind]
		for _, kinds := range extra {
			if k, found := kinds[tm.APIVersion+"/"+tm.Kind]; found {
				newTyped, ok = k, true
			}
		}
		if !ok {
			return nil, fmt.Errorf("document %d: no typed struct for %s %s", i+1, tm.APIVersion, tm.Kind)
		}
		obj := newTyped()
		if err := unmarshalStrict(js, obj); err != nil {
			return nil, fmt.Errorf("document %d (%s): %w", i+1, tm.Kind, err)
		}
		objs = append(objs, &Object{TypeMeta: tm, Typed: obj, Raw: doc})
	}
	return objs, nil
}

// unmarshalStrict matches field names case-sensitively, as the API server does (encoding/json would
// take `Spec:` for spec, which the server drops).
func unmarshalStrict(js []byte, obj interface{}) error {
	strict, err := sigsjson.UnmarshalStrict(js, obj, sigsjson.DisallowDuplicateFields, sigsjson.DisallowUnknownFields)
	if err != nil {
		return err
	}
	return errors.Join(strict...)
}

func stripComments(doc []byte) []byte {
	var out [][]byte
	for _, line := range bytes.Split(doc, []byte("\n")) {
		if !bytes.HasPrefix(bytes.TrimSpace(line), []byte("#")) {
			out = append(out, line)
		}
	}
	return bytes.Join(out, []byte("\n"))
}
