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
	"reflect"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	corednsmodel "k8s.io/kops/pkg/addons/coredns/kopsmodel"
	metricsservermodel "k8s.io/kops/pkg/addons/metricsserver/kopsmodel"
	"k8s.io/kops/pkg/kubemanifest"
)

// Operators is every addon operator kops can deploy, one line each, each from its addon's folder
// (pkg/addons/<name>/kopsmodel): the builders, the golden and channel tests, `kops validate
// cluster`, `kops get assets` and `make images` all read this list, so adding an operator is its
// folder and one line here. Built afresh on each call, so no caller can change another's.
func Operators() []*Operator {
	return []*Operator{
		corednsmodel.Operator(),
		metricsservermodel.Operator(),
	}
}

// OperatorOf is the operator whose addon (Descriptor.AddonName) is name, or nil.
func OperatorOf(name string) *Operator {
	for _, o := range Operators() {
		if o.Descriptor.AddonName == name {
			return o
		}
	}
	return nil
}

// OperatorKinds are the kinds of Operators that kubemanifest.DecodeStrict has no table entry for,
// so that what kops writes for them decodes strictly: each operator's custom resource into the Go
// type its CRD is generated from, and each typed prerequisite (an APIService, say) into its type.
func OperatorKinds() kubemanifest.Kinds { return KindsOf(Operators()) }

// KindsOf are OperatorKinds for a registry of operators.
func KindsOf(operators []*Operator) kubemanifest.Kinds {
	kinds := kubemanifest.Kinds{}
	for _, o := range operators {
		crd := o.Descriptor.CRD
		kinds[crd.APIVersion()+"/"+crd.Kind] = constructor(crd.Type)
		for _, p := range o.Descriptor.Prerequisites {
			t := reflect.TypeOf(p)
			if _, untyped := p.(*unstructured.Unstructured); untyped || t.Kind() != reflect.Pointer {
				continue
			}
			gvk := p.GetObjectKind().GroupVersionKind()
			kinds[gvk.GroupVersion().String()+"/"+gvk.Kind] = constructor(t.Elem())
		}
	}
	return kinds
}

func constructor(t reflect.Type) func() metav1.Object {
	return func() metav1.Object { return reflect.New(t).Interface().(metav1.Object) }
}
