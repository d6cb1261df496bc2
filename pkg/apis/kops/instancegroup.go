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
