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

package operator

// Names are the names an operator and its confinement go by, all derived by NamesOf so no two
// operators collide.
type Names struct {
	AddonName string
	// Namespace holds only the operator's lease and events, keeping its write rights there small
	// and apart from the namespace it manages.
	Namespace      string
	ServiceAccount string
	DeploymentName string
	// LeaseName is the leader-election lease, the one lease the operator may update.
	LeaseName string
	// RBACName names the Role and RoleBinding in every namespace of Rights.
	RBACName   string
	PolicyName string
	// ProbeName names an unmanaged object of a managed kind (ProbeObject).
	ProbeName string
}

// NamesOf returns the names of the operator of addon (e.g. "coredns").
func NamesOf(addon string) Names {
	op := addon + "-operator"
	return Names{
		AddonName:      "operator." + addon + ".addons.x-k8s.io",
		Namespace:      op + "-system",
		ServiceAccount: op,
		DeploymentName: op,
		LeaseName:      op + "-leader",
		RBACName:       op,
		PolicyName:     op + "-scope",
		ProbeName:      op + "-enforcement-probe",
	}
}

// ExactPolicyName names the admission policy that compares the managed objects whole.
func (n Names) ExactPolicyName() string { return n.PolicyName + "-exact" }
