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

package kops

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// InstanceGroup is a group of machines, as stored at <state>/<cluster>/instancegroup/<name>.
type InstanceGroup struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec InstanceGroupSpec `json:"spec,omitempty"`

	// Unmodeled holds the decoded fields this build does not model; see Cluster.Unmodeled.
	Unmodeled Unmodeled `json:"-"`
}

// InstanceGroupRole is what the machines of a group do.
type InstanceGroupRole string

// The roles kops knows. RoleMaster is the old name of RoleControlPlane and means the same.
const (
	RoleControlPlane InstanceGroupRole = "ControlPlane"
	RoleMaster       InstanceGroupRole = "Master"
	RoleNode         InstanceGroupRole = "Node"
	RoleAPIServer    InstanceGroupRole = "APIServer"
	RoleBastion      InstanceGroupRole = "Bastion"
)

// InstanceGroupSpec is the modeled part of an instance group's spec.
type InstanceGroupSpec struct {
	Role             InstanceGroupRole     `json:"role,omitempty"`
	Image            string                `json:"image,omitempty"`
	MachineType      string                `json:"machineType,omitempty"`
	MinSize          *int32                `json:"minSize,omitempty"`
	MaxSize          *int32                `json:"maxSize,omitempty"`
	Subnets          []string              `json:"subnets,omitempty"`
	InstanceMetadata *InstanceMetadataSpec `json:"instanceMetadata,omitempty"`
	// AdditionalUserData are further parts of the machines' user data, kops's field: on AWS the
	// launch template carries them after kops's own part, in a MIME multipart document. The
	// machine's bootstrap (kops's nodeup script, or another) is given here; see docs/terraform.md.
	AdditionalUserData []UserData `json:"additionalUserData,omitempty"`
}

// UserData is one part of a machine's user data.
type UserData struct {
	// Name is the part's file name (its Content-Disposition), e.g. bootstrap.sh.
	Name string `json:"name,omitempty"`
	// Type is its MIME type, one cloud-init reads: text/x-shellscript, text/cloud-config, ...
	Type string `json:"type,omitempty"`
	// Content is the part itself.
	Content string `json:"content,omitempty"`
}

// InstanceMetadataSpec configures the cloud's instance metadata service (IMDS) for the group.
type InstanceMetadataSpec struct {
	// HTTPTokens is "required" (IMDSv2 only) or "optional".
	HTTPTokens *string `json:"httpTokens,omitempty"`
	// HTTPPutResponseHopLimit bounds how many network hops a metadata response travels; 1 keeps it
	// from reaching pods on a bridged network.
	HTTPPutResponseHopLimit *int64 `json:"httpPutResponseHopLimit,omitempty"`
}

// IsControlPlane says whether the group runs the control plane, under either spelling of the role.
func (g *InstanceGroup) IsControlPlane() bool {
	return g.Spec.Role == RoleControlPlane || g.Spec.Role == RoleMaster
}
