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

// Checked is a completed cluster and its problems, kept per document so each is reported against it.
type Checked struct {
	Cluster       *kops.Cluster
	ClusterErrors field.ErrorList
	GroupErrors   []field.ErrorList
	Errors        field.ErrorList
}

func (c Checked) Empty() bool {
	n := len(c.ClusterErrors) + len(c.Errors)
	for _, g := range c.GroupErrors {
		n += len(g)
	}
	return n == 0
}

// Check completes a cluster and validates it with its groups. Every way into the store and update
// cluster call it, so they refuse the same clusters alike. requireRoles demands a control plane and
// nodes, which a cluster being created may add later.
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

// The supported minors: from the oldest the embedded channels carry to the newest tested.
var (
	minKubernetesMinor = semver.Version{Major: 1, Minor: 30}
	maxKubernetesMinor = semver.Version{Major: 1, Minor: 36}
)

// checkKubernetesVersion leaves unparseable versions to validation.
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

// Err locates each problem in its document where there is one (docs may be nil); nil when none.
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
