package cloudup

import (
	"k8s.io/apimachinery/pkg/util/validation/field"

	"k8s.io/kops/pkg/apis/kops"
	"k8s.io/kops/pkg/apis/kops/validation"
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

// Check completes a cluster against its state store and validates it with its groups. With
// requireRoles, the groups must include a control plane and nodes, as a cluster to be built must;
// a cluster being created may get its groups later.
func Check(c *kops.Cluster, groups []*kops.InstanceGroup, stateStore string, requireRoles bool) Checked {
	completed := kops.CompleteCluster(c, stateStore)
	out := Checked{Cluster: completed, ClusterErrors: validation.ValidateCluster(completed)}
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
