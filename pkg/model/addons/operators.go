package addons

import (
	"reflect"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"k8s.io/kops/pkg/kubemanifest"
)

// Operators is every addon operator kops can deploy, one line each: the builders, the golden and
// channel tests, `kops validate cluster`, `kops get assets` and `make images` all read this list,
// so adding an operator is its data (an Operator value) and one line here. Built afresh on each
// call, so no caller can change another's.
func Operators() []*Operator {
	return []*Operator{
		coreDNSOperator(),
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

// OperatorKinds are the custom resources of Operators, for kubemanifest.DecodeStrict: each
// "apiVersion/Kind" decodes strictly into its Go type, the type its CRD is generated from.
func OperatorKinds() kubemanifest.Kinds {
	kinds := kubemanifest.Kinds{}
	for _, o := range Operators() {
		crd := o.Descriptor.CRD
		kinds[crd.APIVersion()+"/"+crd.Kind] = func() metav1.Object {
			return reflect.New(crd.Type).Interface().(metav1.Object)
		}
	}
	return kinds
}
