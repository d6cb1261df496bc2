package operator

import "k8s.io/apimachinery/pkg/runtime/schema"

// ManagedResource is the API resource of a managed kind (every managed kind is served at v1 of
// its group), or false for a kind an operator may not manage.
func ManagedResource(kind string) (schema.GroupVersionResource, bool) {
	k, ok := managedKinds[kind]
	if !ok {
		return schema.GroupVersionResource{}, false
	}
	return schema.GroupVersionResource{Group: k.group, Version: "v1", Resource: k.resource}, true
}
