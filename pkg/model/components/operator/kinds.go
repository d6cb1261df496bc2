package operator

import "sort"

// kindRules is how the admission policy confines the operator's writes of one kind: the API
// resource it matches and the checks derived from the rendered object of that kind.
type kindRules struct {
	group, resource string
	checks          func(*Scope) []check
}

// managedKinds are the kinds an operator may manage. A kind is added here together with the
// checks that confine it; a descriptor naming any other kind is refused (Validate), so nothing an
// operator writes goes unconfined.
var managedKinds = map[string]kindRules{
	"Deployment":     {"apps", "deployments", (*Scope).deploymentChecks},
	"Service":        {"", "services", (*Scope).serviceChecks},
	"ServiceAccount": {"", "serviceaccounts", (*Scope).serviceAccountChecks},
	"ConfigMap":      {"", "configmaps", (*Scope).configMapChecks},
}

func supportedKinds() []string {
	var kinds []string
	for k := range managedKinds {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	return kinds
}
