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
	"fmt"
	"strings"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"k8s.io/kops/pkg/crdschema"
	"k8s.io/kops/pkg/operator"
)

// Descriptor is an operator.Descriptor plus what only the generators read.
type Descriptor struct {
	operator.Descriptor
	// CRDFields adds descriptions and validations CRD.Type cannot say, by JSON path.
	CRDFields  crdschema.Fields
	CRDColumns []apiextensionsv1.CustomResourceColumnDefinition
	// MaxReplicas bounds the replica count of a managed Deployment.
	MaxReplicas int64
	// Rights is everything the operator may do.
	Rights []Right
	// Pod is what the operator's pod, from its channel package, may ask for.
	Pod PodAllowance
	// Prerequisites are cluster objects the addon's pods need that the operator may not write.
	Prerequisites []runtime.Object
}

// PodAllowance is what the operator's pod may set beyond the fixed allow-list, so a tampered
// package cannot place the operator elsewhere.
type PodAllowance struct {
	PriorityClassName string
	NodeSelector      map[string]string
	// Tolerations are key/operator pairs (operator Exists).
	Tolerations []string
}

// Validate reports every missing name and every managed object the generators cannot confine.
func (d *Descriptor) Validate() error {
	var problems []string
	for field, v := range map[string]string{"Subject": d.Subject, "AddonName": d.AddonName, "Namespace": d.Namespace,
		"ServiceAccount": d.ServiceAccount, "DeploymentName": d.DeploymentName, "LeaseName": d.LeaseName,
		"RBACName": d.RBACName, "PolicyName": d.PolicyName, "ProbeName": d.ProbeName,
		"WatchNamespace": d.WatchNamespace, "CRD.Group": d.CRD.Group, "CRD.Version": d.CRD.Version,
		"CRD.Resource": d.CRD.Resource, "CRD.Kind": d.CRD.Kind, "Instructions": d.Instructions} {
		if v == "" {
			problems = append(problems, field+": required")
		}
	}
	if d.CRD.Type == nil {
		problems = append(problems, "CRD.Type: required")
	} else if _, err := crdschema.Schema(d.CRD.Type, d.CRDFields); err != nil {
		problems = append(problems, "CRD: "+err.Error())
	}
	if len(d.Managed) == 0 {
		problems = append(problems, "Managed: at least one object, or the operator has nothing to confine")
	}
	seen := map[string]bool{}
	for i, m := range d.Managed {
		if k, ok := operator.KindOf(m.Kind); !ok {
			problems = append(problems, fmt.Sprintf("Managed[%d].Kind: %q has no admission rules; supported: %v", i, m.Kind, operator.ManagedKinds()))
		} else if len(k.Free) > 0 && bounds[m.Kind] == nil {
			problems = append(problems, fmt.Sprintf("Managed[%d].Kind: %s leaves %v to others and has no bound on them", i, m.Kind, k.Free))
		}
		if seen[m.Kind] {
			problems = append(problems, fmt.Sprintf("Managed[%d]: a second %s; the policy confines one object per kind", i, m.Kind))
		}
		if m.Name == "" || m.Name == d.ProbeName {
			problems = append(problems, fmt.Sprintf("Managed[%d].Name: must be set and differ from ProbeName", i))
		}
		seen[m.Kind] = true
	}
	if d.WatchNamespace != "" && d.WatchNamespace == d.Namespace {
		problems = append(problems, fmt.Sprintf("WatchNamespace: %q is the operator's own namespace (Namespace): the operator must run apart from what it manages, or its rights there would reach its own lease, account and pod", d.WatchNamespace))
	}
	if d.MaxReplicas < 1 {
		problems = append(problems, "MaxReplicas: must be at least 1")
	}
	problems = append(problems, d.validateRights()...)
	problems = append(problems, d.validatePrerequisites()...)
	if len(problems) > 0 {
		sortStrings(problems)
		return fmt.Errorf("operator descriptor %q: %s", d.AddonName, strings.Join(problems, "; "))
	}
	return nil
}
