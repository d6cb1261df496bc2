package validation

import (
	"fmt"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"k8s.io/kops/pkg/kubemanifest"
)

var apiServiceResource = schema.GroupVersionResource{Group: "apiregistration.k8s.io", Version: "v1", Resource: "apiservices"}

// checkAPIService requires the API server to report the aggregated API Available: it reaches the
// Service behind it and the server there answers its discovery. kubectl top and the Horizontal Pod
// Autoscaler fail while it is not.
func (a *attempt) checkAPIService(name string) Check {
	c := Check{Kind: "APIService", Name: name}
	s := &kubemanifest.APIService{}
	if fetchFailed(a.get(apiServiceResource, "", name, s), &c) {
		return c
	}
	for _, cond := range s.Status.Conditions {
		if cond.Type != "Available" {
			continue
		}
		if cond.Status == "True" {
			c.OK, c.Message = true, "available"
			return c
		}
		c.Message = fmt.Sprintf("not available: %s %s", cond.Reason, cond.Message)
		return c
	}
	c.Message = "not available: no Available condition yet"
	return c
}
