package addons

import (
	"fmt"

	"k8s.io/apimachinery/pkg/types"

	"k8s.io/kops/pkg/kubemanifest"
	"k8s.io/kops/pkg/model/components/operator"
	"k8s.io/kops/pkg/operators/metricsserver"
)

// Runs is what an addon runs that `kops validate cluster` checks beyond the addon's record: each
// Deployment must be available, each APIService Available. It is derived from what kops writes for
// the addon, never listed by hand: an operator's managed objects and prerequisites, a built-in
// addon's rendering.
type Runs struct {
	Deployments []types.NamespacedName
	APIServices []string
}

// builtInRenderings render the built-in addons whose workloads validation checks, by addon name.
// The names of what they run do not depend on the cluster, so a default spec names them.
// (CoreDNS's built-in addon is checked as the cluster's DNS, with its Service's address.)
var builtInRenderings = map[string]func() ([]byte, error){
	metricsserver.AddonName: func() ([]byte, error) {
		return metricsserver.RenderBuiltIn(metricsserver.Spec{Image: metricsserver.DefaultImage, Insecure: true})
	},
}

// RunsOf is what the addon of the bootstrap channel named name runs: an operator's addon of the
// registry runs the Deployments its operator manages and serves the APIServices among its
// prerequisites; a built-in addon of builtInRenderings runs the Deployments and serves the
// APIServices of its rendering. It is nil for any other addon.
func RunsOf(name string) (*Runs, error) {
	if o := OperatorOf(name); o != nil {
		return operatorRuns(o.Descriptor)
	}
	if render, ok := builtInRenderings[name]; ok {
		manifest, err := render()
		if err != nil {
			return nil, err
		}
		objs, err := kubemanifest.DecodeStrict(manifest, OperatorKinds())
		if err != nil {
			return nil, fmt.Errorf("addon %s: %w", name, err)
		}
		r := &Runs{}
		for _, o := range objs {
			r.add(o.Kind, o.Typed.GetNamespace(), o.Typed.GetName())
		}
		return r, nil
	}
	return nil, nil
}

func operatorRuns(d *operator.Descriptor) (*Runs, error) {
	r := &Runs{}
	for _, m := range d.Managed {
		r.add(m.Kind, d.WatchNamespace, m.Name)
	}
	prerequisites, err := d.PrerequisiteObjects()
	if err != nil {
		return nil, fmt.Errorf("operator %s: %w", d.AddonName, err)
	}
	for _, p := range prerequisites {
		kind, _ := p["kind"].(string)
		meta, _ := p["metadata"].(map[string]interface{})
		name, _ := meta["name"].(string)
		r.add(kind, "", name)
	}
	return r, nil
}

func (r *Runs) add(kind, namespace, name string) {
	switch kind {
	case "Deployment":
		r.Deployments = append(r.Deployments, types.NamespacedName{Namespace: namespace, Name: name})
	case "APIService":
		r.APIServices = append(r.APIServices, name)
	}
}
