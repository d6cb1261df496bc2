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

package validation

import (
	"fmt"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"k8s.io/kops/pkg/apis/kops"
)

var (
	supportedRoles = []string{
		string(kops.RoleControlPlane), string(kops.RoleMaster), string(kops.RoleNode),
		string(kops.RoleAPIServer), string(kops.RoleBastion),
	}
	supportedHTTPTokens = []string{"optional", "required"}
)

const (
	minHopLimit = 1
	maxHopLimit = 64
)

// ValidateInstanceGroup returns every problem with ig; with a nil cluster, the checks needing it are skipped.
func ValidateInstanceGroup(ig *kops.InstanceGroup, cluster *kops.Cluster) field.ErrorList {
	return validateInstanceGroup(ig, cluster, nil)
}

func validateInstanceGroup(ig *kops.InstanceGroup, cluster *kops.Cluster, root *field.Path) field.ErrorList {
	var errs field.ErrorList
	meta, spec := child(root, "metadata"), child(root, "spec")

	namePath := meta.Child("name")
	if ig.Name == "" {
		errs = append(errs, field.Required(namePath, ""))
	}
	for _, msg := range dnsSubdomainProblems(ig.Name) {
		errs = append(errs, field.Invalid(namePath, ig.Name, msg))
	}

	labelPath := meta.Child("labels").Key(kops.LabelClusterName)
	label, hasLabel := ig.Labels[kops.LabelClusterName]
	switch {
	case !hasLabel || label == "":
		errs = append(errs, field.Required(labelPath, "names the cluster the group belongs to"))
	case cluster != nil && label != cluster.Name:
		errs = append(errs, field.Invalid(labelPath, label, fmt.Sprintf("must be the cluster name %q", cluster.Name)))
	}

	rolePath := spec.Child("role")
	switch {
	case ig.Spec.Role == "":
		errs = append(errs, field.Required(rolePath, "one of "+strings.Join(supportedRoles, ", ")))
	case !slices.Contains(supportedRoles, string(ig.Spec.Role)):
		errs = append(errs, field.NotSupported(rolePath, ig.Spec.Role, supportedRoles))
	}

	errs = append(errs, validateSizes(&ig.Spec, spec)...)
	errs = append(errs, validateIGSubnets(ig.Spec.Subnets, cluster, spec.Child("subnets"))...)
	errs = append(errs, validateInstanceMetadata(ig.Spec.InstanceMetadata, spec.Child("instanceMetadata"))...)
	errs = append(errs, validateInstanceMetadataForMode(ig, cluster, spec.Child("instanceMetadata"))...)
	errs = append(errs, validateAdditionalUserData(ig.Spec.AdditionalUserData, spec.Child("additionalUserData"))...)
	return errs
}

func validateSizes(s *kops.InstanceGroupSpec, spec *field.Path) field.ErrorList {
	var errs field.ErrorList
	minPath, maxPath := spec.Child("minSize"), spec.Child("maxSize")
	if s.MinSize != nil && *s.MinSize < 0 {
		errs = append(errs, field.Invalid(minPath, *s.MinSize, "must not be negative"))
	}
	if s.MaxSize != nil && *s.MaxSize < 0 {
		errs = append(errs, field.Invalid(maxPath, *s.MaxSize, "must not be negative"))
	}
	if s.MinSize != nil && s.MaxSize != nil && *s.MinSize > *s.MaxSize {
		errs = append(errs, field.Invalid(minPath, *s.MinSize,
			fmt.Sprintf("must be less than or equal to %s (%d)", maxPath, *s.MaxSize)))
	}
	return errs
}

func validateIGSubnets(subnets []string, cluster *kops.Cluster, path *field.Path) field.ErrorList {
	if len(subnets) == 0 {
		return field.ErrorList{field.Required(path, "at least one subnet from the cluster's spec.subnets")}
	}
	var errs field.ErrorList
	known := map[string]bool{}
	if cluster != nil {
		for _, s := range cluster.Spec.Subnets {
			known[s.Name] = true
		}
	}
	seen := map[string]bool{}
	for i, name := range subnets {
		p := path.Index(i)
		switch {
		case seen[name]:
			errs = append(errs, field.Duplicate(p, name))
		case cluster != nil && !known[name]:
			errs = append(errs, field.NotFound(p, name))
		}
		seen[name] = true
	}
	return errs
}

func validateInstanceMetadata(m *kops.InstanceMetadataSpec, path *field.Path) field.ErrorList {
	if m == nil {
		return nil
	}
	var errs field.ErrorList
	if m.HTTPTokens != nil && !slices.Contains(supportedHTTPTokens, *m.HTTPTokens) {
		errs = append(errs, field.NotSupported(path.Child("httpTokens"), *m.HTTPTokens, supportedHTTPTokens))
	}
	if h := m.HTTPPutResponseHopLimit; h != nil && (*h < minHopLimit || *h > maxHopLimit) {
		errs = append(errs, field.Invalid(path.Child("httpPutResponseHopLimit"), *h,
			fmt.Sprintf("must be from %d to %d", minHopLimit, maxHopLimit)))
	}
	return errs
}

// ValidateClusterAndInstanceGroups also checks a control plane and nodes exist and group names are
// unique; group errors are placed under instanceGroups[<name>].
func ValidateClusterAndInstanceGroups(c *kops.Cluster, igs []*kops.InstanceGroup) field.ErrorList {
	errs := ValidateCluster(c)
	igsPath := field.NewPath("instanceGroups")
	var controlPlane, nodes bool
	names := map[string]bool{}
	for i, ig := range igs {
		if ig == nil {
			errs = append(errs, field.Required(igsPath.Index(i), "instance group is nil"))
			continue
		}
		root := igsPath.Index(i)
		if ig.Name != "" {
			root = igsPath.Key(ig.Name)
			if names[ig.Name] {
				errs = append(errs, field.Duplicate(root.Child("metadata", "name"), ig.Name))
			}
			names[ig.Name] = true
		}
		errs = append(errs, validateInstanceGroup(ig, c, root)...)
		controlPlane = controlPlane || ig.IsControlPlane()
		nodes = nodes || ig.Spec.Role == kops.RoleNode
	}
	if !controlPlane {
		errs = append(errs, field.Required(igsPath, "at least one instance group with role ControlPlane (or Master)"))
	}
	if !nodes {
		errs = append(errs, field.Required(igsPath, "at least one instance group with role Node"))
	}
	return errs
}

func child(root *field.Path, name string) *field.Path {
	if root == nil {
		return field.NewPath(name)
	}
	return root.Child(name)
}

// dnsSubdomainProblems: a group names its machines and cloud resources (<group>.<cluster>), so it is a DNS name.
func dnsSubdomainProblems(name string) []string {
	if name == "" {
		return nil
	}
	return DNSNameProblems(name)
}
