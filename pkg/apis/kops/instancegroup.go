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

// InstanceGroup is stored at <state>/<cluster>/instancegroup/<name>.
type InstanceGroup struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec InstanceGroupSpec `json:"spec,omitempty"`

	Unmodeled Unmodeled `json:"-"`
}

type InstanceGroupRole string

// RoleMaster is the old name of RoleControlPlane.
const (
	RoleControlPlane InstanceGroupRole = "ControlPlane"
	RoleMaster       InstanceGroupRole = "Master"
	RoleNode         InstanceGroupRole = "Node"
	RoleAPIServer    InstanceGroupRole = "APIServer"
	RoleBastion      InstanceGroupRole = "Bastion"
)

type InstanceGroupSpec struct {
	Role             InstanceGroupRole     `json:"role,omitempty"`
	Image            string                `json:"image,omitempty"`
	MachineType      string                `json:"machineType,omitempty"`
	MinSize          *int32                `json:"minSize,omitempty"`
	MaxSize          *int32                `json:"maxSize,omitempty"`
	Subnets          []string              `json:"subnets,omitempty"`
	InstanceMetadata *InstanceMetadataSpec `json:"instanceMetadata,omitempty"`
	// AdditionalUserData parts follow kops's own part in a MIME multipart document (see docs/terraform.md).
	AdditionalUserData []UserData `json:"additionalUserData,omitempty"`
}

type UserData struct {
	// Name is the part's file name (its Content-Disposition).
	Name    string `json:"name,omitempty"`
	Type    string `json:"type,omitempty"`
	Content string `json:"content,omitempty"`
}

type InstanceMetadataSpec struct {
	HTTPTokens *string `json:"httpTokens,omitempty"`
	// HTTPPutResponseHopLimit 1 keeps metadata responses from reaching pods on a bridged network.
	HTTPPutResponseHopLimit *int64 `json:"httpPutResponseHopLimit,omitempty"`
}

func (g *InstanceGroup) IsControlPlane() bool {
	return g.Spec.Role == RoleControlPlane || g.Spec.Role == RoleMaster
}
