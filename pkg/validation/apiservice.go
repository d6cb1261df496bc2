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

	"k8s.io/apimachinery/pkg/runtime/schema"

	"k8s.io/kops/pkg/kubemanifest"
)

var apiServiceResource = schema.GroupVersionResource{Group: "apiregistration.k8s.io", Version: "v1", Resource: "apiservices"}

// checkAPIService requires the APIService Available; kubectl top and HPA fail while it is not.
// caFrom is the Certificate (namespace/name) cert-manager takes its CA from, if it says one.
func (a *attempt) checkAPIService(name string) (c Check, caFrom string) {
	c = Check{Kind: "APIService", Name: name}
	s := &kubemanifest.APIService{}
	if fetchFailed(a.get(apiServiceResource, "", name, s), &c) {
		return c, ""
	}
	caFrom = s.Annotations[InjectCAFromAnnotation]
	for _, cond := range s.Status.Conditions {
		if cond.Type != "Available" {
			continue
		}
		if cond.Status == "True" {
			c.OK, c.Message = true, "available"
			return c, caFrom
		}
		c.Message = fmt.Sprintf("not available: %s %s", cond.Reason, cond.Message)
		if caFrom != "" {
			c.Message += " (its CA comes from cert-manager's Certificate " + caFrom + ")"
		}
		return c, caFrom
	}
	c.Message = "not available: no Available condition yet"
	return c, caFrom
}
