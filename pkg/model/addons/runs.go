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

// Runs is what `kops validate cluster` checks of an addon beyond its record: each Deployment
// available, each APIService Available. It is derived from the descriptor, never listed by hand.
type Runs struct {
	Deployments []types.NamespacedName
	APIServices []string
}

// RunsOf is what the channel's addon name runs: for an operator's addon and its built-in addon
// alike, the managed Deployments and the prerequisite APIServices. It is nil for any other addon
// and for the cluster DNS's built-in addon, which validation checks as the DNS.
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
