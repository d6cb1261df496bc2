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
	"fmt"

	"k8s.io/kops/pkg/apis/kops"
	"k8s.io/kops/upup/pkg/fi/cloudup/awstasks"
)

// securityGroupName is kops's name for a role's group. This build makes no security groups; its launch
// templates look kops's up so machines are let in and out as kops's are.
func securityGroupName(cluster string, ig *kops.InstanceGroup) string {
	switch {
	case ig.IsControlPlane() || ig.Spec.Role == kops.RoleAPIServer:
		return "masters." + cluster
	case ig.Spec.Role == kops.RoleBastion:
		return "bastion." + cluster
	}
	return "nodes." + cluster
}

func outputRole(ig *kops.InstanceGroup) string {
	switch {
	case ig.IsControlPlane():
		return "master"
	case ig.Spec.Role == kops.RoleAPIServer:
		return "apiserver"
	case ig.Spec.Role == kops.RoleBastion:
		return "bastion"
	}
	return "node"
}

// securityGroups are a group's security groups in kops's order.
func securityGroups(c *kops.Cluster, ig *kops.InstanceGroup) ([]awstasks.SecurityGroup, error) {
	override, err := kopsString(ig.Unmodeled, "spec", "securityGroupOverride")
	if err != nil {
		return nil, fmt.Errorf("instance group %q: %w", ig.Name, err)
	}
	groups := []awstasks.SecurityGroup{{Name: securityGroupName(c.Name, ig), Cluster: c.Name}}
	if override != "" {
		groups = []awstasks.SecurityGroup{{ID: override}}
	}
	if ig.IsControlPlane() || ig.Spec.Role == kops.RoleAPIServer {
		class, err := kopsString(c.Unmodeled, "spec", "api", "loadBalancer", "class")
		if err != nil {
			return nil, err
		}
		if class == "Network" {
			ids, err := kopsStrings(c.Unmodeled, "spec", "api", "loadBalancer", "additionalSecurityGroups")
			if err != nil {
				return nil, err
			}
			for _, id := range ids {
				groups = append(groups, awstasks.SecurityGroup{ID: id})
			}
		}
	}
	ids, err := kopsStrings(ig.Unmodeled, "spec", "additionalSecurityGroups")
	if err != nil {
		return nil, fmt.Errorf("instance group %q: %w", ig.Name, err)
	}
	for _, id := range ids {
		groups = append(groups, awstasks.SecurityGroup{ID: id})
	}
	return groups, nil
}
