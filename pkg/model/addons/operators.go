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

// Operators is the registry: every addon operator kops can deploy, one line each. Everything that
// handles operators reads it, so adding one is its folder and a line here. Built afresh on each
// call, so no caller can change another's.
func Operators() []*Operator {
	return []*Operator{
		corednsmodel.Operator(),
		metricsservermodel.Operator(),
	}
}

// OperatorOf is the operator whose Descriptor.AddonName is name, or nil.
func OperatorOf(name string) *Operator {
	for _, o := range Operators() {
		if o.Descriptor.AddonName == name {
			return o
		}
	}
	return nil
}

// OperatorKinds let kubemanifest.DecodeStrict decode what kops writes for Operators strictly: each
// custom resource into its CRD's Go type, each typed prerequisite into its type.
func OperatorKinds() kubemanifest.Kinds { return KindsOf(Operators()) }

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
