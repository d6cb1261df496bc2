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
	"fmt"

	"k8s.io/apimachinery/pkg/types"

	"k8s.io/kops/pkg/operator/confine"
)

// Runs is what an addon runs that `kops validate cluster` checks beyond the addon's record: each
// Deployment must be available, each APIService Available. It is derived from what kops writes for
// the addon, never listed by hand: an operator's managed objects and prerequisites, for its own
// addon and for its built-in addon alike.
type Runs struct {
	Deployments []types.NamespacedName
	APIServices []string
}

// RunsOf is what the addon of the bootstrap channel named name runs: an operator's addon of the
// registry runs the Deployments its operator manages and serves the APIServices among its
// prerequisites, and so does the operator's built-in addon (BuiltIn.Name), which renders the same
// managed objects and prerequisites in every mode. It is nil for any other addon, and for the
// built-in addon of the cluster's DNS, which validation checks as the DNS, with its Service's
// address.
func RunsOf(name string) (*Runs, error) {
	for _, o := range Operators() {
		switch {
		case o.Descriptor.AddonName == name:
			return operatorRuns(o.Descriptor)
		case o.BuiltIn != nil && o.BuiltIn.Name == name && !o.ClusterDNS:
			return operatorRuns(o.Descriptor)
		}
	}
	return nil, nil
}

func operatorRuns(d *confine.Descriptor) (*Runs, error) {
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
