package operator

import rbacv1 "k8s.io/api/rbac/v1"

// Right is one grant to the operator's ServiceAccount: Verbs on Resources of APIGroup in
// Namespace, limited to ResourceNames when set. Why is shown in the documentation, so every right
// has to justify itself where reviewers look.
type Right struct {
	Namespace     string // the descriptor's WatchNamespace or Namespace; no cluster-scoped rights
	APIGroup      string // "" is the core group
	Resources     []string
	Verbs         []string
	ResourceNames []string // empty means any name
	Why           string
}

// PolicyRule is the RBAC rule for r. Slices are copied so callers cannot change Rights through
// the generated objects.
func (r Right) PolicyRule() rbacv1.PolicyRule {
	return rbacv1.PolicyRule{
		APIGroups:     []string{r.APIGroup},
		Resources:     append([]string(nil), r.Resources...),
		Verbs:         append([]string(nil), r.Verbs...),
		ResourceNames: append([]string(nil), r.ResourceNames...),
	}
}
