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

package awsmodel

import (
	"encoding/base32"
	"fmt"
	"hash/fnv"
	"strings"

	"k8s.io/kops/pkg/apis/kops"
	"k8s.io/kops/pkg/apis/kops/validation"
	"k8s.io/kops/pkg/model"
)

const (
	TagClusterName   = "KubernetesCluster"
	TagInstanceGroup = "kops.k8s.io/instancegroup"
	TagRoleMaster    = "k8s.io/role/master"
	tagOwnedPrefix   = "kubernetes.io/cluster/"
	tagOwned         = "owned"

	// kops's tags on a service account's role.
	tagServiceAccountName      = "service-account.kops.k8s.io/name"
	tagServiceAccountNamespace = "service-account.kops.k8s.io/namespace"
)

// AWS's name limits kops truncates to (the SQS queue name itself may have 80 characters).
const (
	maxIAMNameLength     = 64
	maxQueuePrefixLength = 75
)

// roleKind is kops's name part for a role's IAM objects and terraform outputs (masters_role_arn).
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

// iamName is nodes.<cluster> etc., cut to AWS's 64 characters as kops cuts it.
func iamName(ctx *model.KopsModelContext, role kops.InstanceGroupRole) (string, error) {
	kind, err := roleKind(role)
	if err != nil {
		return "", err
	}
	return truncateName(kind+"."+ctx.Cluster.Name, maxIAMNameLength), nil
}

// LaunchTemplateName is kops's: <group>.masters.<cluster>, <group>.apiservers.<cluster>, or <group>.<cluster>.
func LaunchTemplateName(cluster string, ig *kops.InstanceGroup) string {
	switch {
	case ig.IsControlPlane():
		return ig.Name + ".masters." + cluster
	case ig.Spec.Role == kops.RoleAPIServer:
		return ig.Name + ".apiservers." + cluster
	}
	return ig.Name + "." + cluster
}

func queueName(cluster string) string {
	return truncateName(strings.ReplaceAll(cluster, ".", "-"), maxQueuePrefixLength) + "-nth"
}

// truncateName cuts s to max as kops does, ending in "-" and six base32hex characters of its FNV-1a
// hash so long names sharing a prefix stay apart.
func truncateName(s string, max int) string {
	if len(s) <= max {
		return s
	}
	h := fnv.New32a()
	h.Write([]byte(s))
	sum := strings.ToLower(base32.HexEncoding.EncodeToString(h.Sum(nil)))[:6]
	return s[:max-len(sum)-1] + "-" + sum
}

func clusterTags(ctx *model.KopsModelContext) map[string]string {
	return map[string]string{
		TagClusterName:                    ctx.Cluster.Name,
		tagOwnedPrefix + ctx.Cluster.Name: tagOwned,
	}
}

// Region is the region of the subnets' zones; a cluster with no zone has none this build can know.
func Region(c *kops.Cluster) (string, error) {
	for _, s := range c.Spec.Subnets {
		if s.Zone == "" {
			continue
		}
		region, problem := validation.ZoneRegion("aws", s.Zone)
		if problem != "" {
			return "", fmt.Errorf("spec.subnets: zone %q %s", s.Zone, problem)
		}
		return region, nil
	}
	return "", fmt.Errorf("spec.subnets: no subnet names a zone, so the cluster's AWS region is unknown (the IAM policies and the terraform provider name it)")
}

// Builders returns the AWS model builders, none for another cloud.
func Builders(ctx *model.KopsModelContext) []model.Builder {
	if ctx.Cluster.Spec.CloudProvider != "aws" {
		return nil
	}
	return []model.Builder{&IAMModelBuilder{Context: ctx}, &LaunchTemplateModelBuilder{Context: ctx}}
}
