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

package cloudup

import (
	"fmt"
	"strings"

	"github.com/blang/semver/v4"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"k8s.io/kops/pkg/apis/kops"
	"k8s.io/kops/pkg/apis/kops/validation"
	"k8s.io/kops/pkg/kopscodecs"
)

// Checked is a cluster completed with its defaults, and the problems found in it and its groups,
// kept apart so that each can be reported against the document it came from.
type Checked struct {
	Cluster       *kops.Cluster
	ClusterErrors field.ErrorList
	// GroupErrors is indexed like the groups given.
	GroupErrors []field.ErrorList
	// Errors concern the set of groups as a whole (a missing role, a duplicate name).
	Errors field.ErrorList
}

// Empty says whether nothing is wrong.
func (c Checked) Empty() bool {
	n := len(c.ClusterErrors) + len(c.Errors)
	for _, g := range c.GroupErrors {
		n += len(g)
	}
	return n == 0
}

// Check completes a cluster against its state store and validates it with its groups: kops's rules
// (validation.ValidateCluster) and what this build can render (the Kubernetes versions). Every way
// a cluster enters the store (create cluster, create -f, edit) and update cluster's load of it
// call Check, so they refuse the same clusters with the same field paths. With requireRoles, the
// groups must include a control plane and nodes, as a cluster to be built must; a cluster being
// created may get its groups later.
func Check(c *kops.Cluster, groups []*kops.InstanceGroup, stateStore string, requireRoles bool) Checked {
	completed := kops.CompleteCluster(c, stateStore)
	out := Checked{Cluster: completed, ClusterErrors: validation.ValidateCluster(completed)}
	out.ClusterErrors = append(out.ClusterErrors,
		checkKubernetesVersion(completed.Spec.KubernetesVersion, field.NewPath("spec", "kubernetesVersion"))...)
	names := map[string]bool{}
	var controlPlane, nodes bool
	for _, g := range groups {
		errs := validation.ValidateInstanceGroup(g, completed)
		if names[g.Name] {
			errs = append(errs, field.Duplicate(field.NewPath("metadata", "name"), g.Name))
		}
		names[g.Name] = true
		out.GroupErrors = append(out.GroupErrors, errs)
		controlPlane = controlPlane || g.IsControlPlane()
		nodes = nodes || g.Spec.Role == kops.RoleNode
	}
	if requireRoles && !controlPlane {
		out.Errors = append(out.Errors, field.Required(field.NewPath("instanceGroups"), "at least one instance group with role ControlPlane; add one with 'kops create -f'"))
	}
	if requireRoles && !nodes {
		out.Errors = append(out.Errors, field.Required(field.NewPath("instanceGroups"), "at least one instance group with role Node; add one with 'kops create -f'"))
	}
	return out
}

// The Kubernetes minors this build supports: from the oldest the embedded channels carry addon
// packages for to the newest it was tested with. Any patch or pre-release of them is accepted.
var (
	minKubernetesMinor = semver.Version{Major: 1, Minor: 30}
	maxKubernetesMinor = semver.Version{Major: 1, Minor: 36}
)

// checkKubernetesVersion refuses a version outside the supported minors. A version that does not
// parse is left to validation, which says what a version looks like.
func checkKubernetesVersion(version string, path *field.Path) field.ErrorList {
	v, err := semver.Parse(strings.TrimPrefix(version, "v"))
	if err != nil {
		return nil
	}
	if minor := (semver.Version{Major: v.Major, Minor: v.Minor}); minor.GE(minKubernetesMinor) && minor.LE(maxKubernetesMinor) {
		return nil
	}
	return field.ErrorList{field.Invalid(path, version, fmt.Sprintf("is not supported: this build supports Kubernetes %d.%d to %d.%d",
		minKubernetesMinor.Major, minKubernetesMinor.Minor, maxKubernetesMinor.Major, maxKubernetesMinor.Minor))}
}

// Err reports the problems, each located in the document it came from where there was one
// (clusterDoc and groupDocs may be nil, for objects made from flags or read from the store), or
// nil when there are none.
func (c Checked) Err(name string, clusterDoc *kopscodecs.Object, groupDocs []*kopscodecs.Object) error {
	if c.Empty() {
		return nil
	}
	var parts []string
	add := func(doc *kopscodecs.Object, title string, errs field.ErrorList) {
		switch {
		case len(errs) == 0:
		case doc != nil:
			parts = append(parts, doc.FieldErrors(errs).Error())
		default:
			parts = append(parts, FieldErrors(title, errs).Error())
		}
	}
	add(clusterDoc, fmt.Sprintf("cluster %q is not valid:", name), c.ClusterErrors)
	for i, errs := range c.GroupErrors {
		var doc *kopscodecs.Object
		if i < len(groupDocs) {
			doc = groupDocs[i]
		}
		add(doc, fmt.Sprintf("instance group %d of cluster %q is not valid:", i+1, name), errs)
	}
	add(nil, fmt.Sprintf("cluster %q is not valid:", name), c.Errors)
	return fmt.Errorf("%s", strings.Join(parts, "\n"))
}

// FieldErrors renders validation errors one per line under a title, paths first.
func FieldErrors(title string, errs field.ErrorList) error {
	if len(errs) == 0 {
		return nil
	}
	lines := []string{title}
	for _, e := range errs {
		lines = append(lines, "  "+e.Error())
	}
	return fmt.Errorf("%s", strings.Join(lines, "\n"))
}
