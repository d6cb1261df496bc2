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

package confine

import (
	"fmt"

	rbacv1 "k8s.io/api/rbac/v1"

	"k8s.io/kops/pkg/operator"
)

// Right is one grant to the operator's ServiceAccount. Why is shown in the documentation, so every
// right justifies itself where reviewers look.
type Right struct {
	Namespace     string // the descriptor's WatchNamespace or Namespace; no cluster-scoped rights
	APIGroup      string // "" is the core group
	Resources     []string
	Verbs         []string
	ResourceNames []string // empty means any name
	Why           string
}

// PolicyRule copies the slices so callers cannot change Rights through the generated objects.
func (r Right) PolicyRule() rbacv1.PolicyRule {
	return rbacv1.PolicyRule{
		APIGroups:     []string{r.APIGroup},
		Resources:     append([]string(nil), r.Resources...),
		Verbs:         append([]string(nil), r.Verbs...),
		ResourceNames: append([]string(nil), r.ResourceNames...),
	}
}

var (
	writeVerbs = map[string]bool{"create": true, "update": true, "patch": true}
	readVerbs  = map[string]bool{"get": true, "list": true, "watch": true}
)

// validateRights allows read and write verbs only (no delete, wildcard, escalate or impersonate),
// in the operator's two namespaces, and in the watch namespace writes only to what the admission
// policy confines or to the instructions' status: any other write no policy would see.
func (d *Descriptor) validateRights() []string {
	writable := map[[2]string]bool{{"", "events"}: true, {"events.k8s.io", "events"}: true, {d.CRD.Group, d.CRD.Resource + "/status"}: true}
	for _, m := range d.Managed {
		if k, ok := operator.KindOf(m.Kind); ok {
			writable[[2]string{k.Group, k.Resource}] = true
		}
	}
	ownWritable := map[[2]string]bool{{"", "events"}: true, {"events.k8s.io", "events"}: true, {"coordination.k8s.io", "leases"}: true}
	var problems []string
	for i, r := range d.Rights {
		where := fmt.Sprintf("Rights[%d]", i)
		if r.Namespace != d.Namespace && r.Namespace != d.WatchNamespace {
			problems = append(problems, fmt.Sprintf("%s.Namespace: %q is neither Namespace nor WatchNamespace", where, r.Namespace))
		}
		if r.Why == "" {
			problems = append(problems, where+".Why: required: every right says why")
		}
		writes := false
		for _, v := range r.Verbs {
			switch {
			case writeVerbs[v]:
				writes = true
			case !readVerbs[v]:
				problems = append(problems, fmt.Sprintf("%s.Verbs: %q is not allowed, only get, list, watch, create, update and patch", where, v))
			}
		}
		for _, res := range r.Resources {
			switch {
			case res == "*" || r.APIGroup == "*":
				problems = append(problems, where+": wildcards are not allowed")
			case writes && r.Namespace == d.WatchNamespace && !writable[[2]string{r.APIGroup, res}]:
				problems = append(problems, fmt.Sprintf("%s: writes to %q in group %q, which no admission rule confines", where, res, r.APIGroup))
			case writes && r.Namespace == d.Namespace && !ownWritable[[2]string{r.APIGroup, res}]:
				problems = append(problems, fmt.Sprintf("%s: writes to %q in group %q in its own namespace, where it may write only its lease and events", where, res, r.APIGroup))
			}
		}
	}
	return problems
}

// OwnNamespaceRights are the only rights an operator has in its own namespace.
func OwnNamespaceRights(n operator.Names) []Right {
	events := []string{"create", "patch"}
	return []Right{
		{Namespace: n.Namespace, Resources: []string{"events"}, Verbs: events, Why: "Record leader-election events."},
		{Namespace: n.Namespace, APIGroup: "events.k8s.io", Resources: []string{"events"}, Verbs: events, Why: "Same events through the newer events API."},
		{Namespace: n.Namespace, APIGroup: "coordination.k8s.io", Resources: []string{"leases"}, Verbs: []string{"create"},
			Why: "Create the leader-election lease when missing (create cannot be limited by name)."},
		{Namespace: n.Namespace, APIGroup: "coordination.k8s.io", Resources: []string{"leases"}, Verbs: []string{"get", "update"},
			ResourceNames: []string{n.LeaseName}, Why: "Read and renew only its own leader-election lease."},
	}
}
