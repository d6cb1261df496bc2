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

package api

import (
	"errors"
	"net/http"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// PolicyDenial names the ValidatingAdmissionPolicy, and its binding, that denied a request.
type PolicyDenial struct {
	Policy string
	// Binding is empty when the server did not name one.
	Binding string
}

var policyDenialCodes = map[metav1.StatusReason]int32{
	metav1.StatusReasonInvalid:               http.StatusUnprocessableEntity,
	metav1.StatusReasonForbidden:             http.StatusForbidden,
	metav1.StatusReasonUnauthorized:          http.StatusUnauthorized,
	metav1.StatusReasonRequestEntityTooLarge: http.StatusRequestEntityTooLarge,
}

// AsPolicyDenial reports whether err wraps the API server's refusal by a ValidatingAdmissionPolicy,
// and by which policy and binding. The server names the policy only in a cause's message, so that
// is parsed here and only here; an error that merely mentions a policy is not a denial.
func AsPolicyDenial(err error) (PolicyDenial, bool) {
	var status apierrors.APIStatus
	if err == nil || !errors.As(err, &status) {
		return PolicyDenial{}, false
	}
	s := status.Status()
	code, known := policyDenialCodes[s.Reason]
	if s.Status != metav1.StatusFailure || !known || s.Code != code || s.Details == nil {
		return PolicyDenial{}, false
	}
	for _, c := range s.Details.Causes {
		if c.Type != "" || c.Field != "" {
			continue
		}
		if d, ok := parsePolicyDenial(c.Message); ok {
			return d, true
		}
	}
	return PolicyDenial{}, false
}

// parsePolicyDenial reads "ValidatingAdmissionPolicy '<policy>' [with binding '<binding>' ]denied request...".
func parsePolicyDenial(msg string) (PolicyDenial, bool) {
	rest, ok := strings.CutPrefix(msg, "ValidatingAdmissionPolicy '")
	if !ok {
		return PolicyDenial{}, false
	}
	var d PolicyDenial
	d.Policy, rest, ok = strings.Cut(rest, "' ")
	if !ok || d.Policy == "" {
		return PolicyDenial{}, false
	}
	if after, found := strings.CutPrefix(rest, "with binding '"); found {
		d.Binding, rest, ok = strings.Cut(after, "' ")
		if !ok || d.Binding == "" {
			return PolicyDenial{}, false
		}
	}
	if !strings.HasPrefix(rest, "denied request") {
		return PolicyDenial{}, false
	}
	return d, true
}
