// Package awsmodel builds the AWS objects of a cluster's machines: per instance group a launch
// template, per machine role an IAM role, instance profile and (where it grants something) a role
// policy built from a rights table. It is used for clusters with cloudProvider aws only.
package awsmodel

import (
	"fmt"

	"k8s.io/kops/pkg/apis/kops"
	"k8s.io/kops/pkg/model"
)

// Tag keys kops puts on what it creates, and the value of the cluster's ownership tag.
const (
	TagClusterName   = "KubernetesCluster"
	TagInstanceGroup = "kops.k8s.io/instancegroup"
	tagOwnedPrefix   = "kubernetes.io/cluster/"
	tagOwned         = "owned"
)

// roleKind is the name part kops gives the IAM objects of a machine role.
func roleKind(role kops.InstanceGroupRole) (string, error) {
	switch role {
	case kops.RoleControlPlane, kops.RoleMaster:
		return "masters", nil
	case kops.RoleNode:
		return "nodes", nil
	case kops.RoleBastion:
		return "bastions", nil
	case kops.RoleAPIServer:
		return "apiservers", nil
	}
	return "", fmt.Errorf("instance group role %q has no IAM role", role)
}

// iamName is the name of the role, profile and policy of a machine role: nodes.<cluster>.
func iamName(ctx *model.KopsModelContext, role kops.InstanceGroupRole) (string, error) {
	kind, err := roleKind(role)
	if err != nil {
		return "", err
	}
	return kind + "." + ctx.Cluster.Name, nil
}

// clusterTags are the tags of every object of the cluster.
func clusterTags(ctx *model.KopsModelContext) map[string]string {
	return map[string]string{
		TagClusterName:                    ctx.Cluster.Name,
		tagOwnedPrefix + ctx.Cluster.Name: tagOwned,
	}
}

// Builders returns the AWS model builders for ctx, none for a cluster on another cloud.
func Builders(ctx *model.KopsModelContext) []model.Builder {
	if ctx.Cluster.Spec.CloudProvider != "aws" {
		return nil
	}
	return []model.Builder{&IAMModelBuilder{Context: ctx}, &LaunchTemplateModelBuilder{Context: ctx}}
}
