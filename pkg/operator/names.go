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

// Names are the names an operator and its confinement go by. Every operator kops deploys takes
// them from NamesOf, so that a new operator states one word and no two operators can collide.
type Names struct {
	// AddonName is the kops addon shipping the operator; its objects carry it as a label.
	AddonName string
	// Namespace, ServiceAccount and DeploymentName say where and as whom the operator runs. Its
	// own namespace holds only its lease and events, so that its write rights there stay small
	// and apart from the namespace it manages.
	Namespace      string
	ServiceAccount string
	DeploymentName string
	// LeaseName is the leader-election lease, the one lease the operator may update.
	LeaseName string
	// RBACName names the Role and RoleBinding in every namespace of Rights.
	RBACName string
	// PolicyName names the admission policy and its binding.
	PolicyName string
	// ProbeName names an object the operator does not manage, of a managed kind (ProbeObject):
	// channels asks (as a dry run) to create it as the operator, and sees the policy enforced when
	// that is denied.
	ProbeName string
}

// NamesOf are the names of the operator of addon (e.g. "coredns"): addon
// operator.<addon>.addons.x-k8s.io, running as <addon>-operator in namespace
// <addon>-operator-system, with lease <addon>-operator-leader, Roles <addon>-operator, admission
// policy <addon>-operator-scope and probe <addon>-operator-enforcement-probe.
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

// ExactPolicyName names the admission policy (and binding) that compares the managed objects whole.
func (n Names) ExactPolicyName() string { return n.PolicyName + "-exact" }
