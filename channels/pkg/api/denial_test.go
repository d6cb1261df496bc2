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
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// denied builds the error the API server's policy dispatcher returns.
func denied(reason metav1.StatusReason, code int32, message string) error {
	err := apierrors.NewForbidden(schema.GroupResource{Resource: "configmaps"}, "x", errors.New(message))
	err.ErrStatus.Reason, err.ErrStatus.Code = reason, code
	err.ErrStatus.Details.Causes = append(err.ErrStatus.Details.Causes, metav1.StatusCause{Message: message})
	return err
}

func TestAsPolicyDenial(t *testing.T) {
	const withBinding = "ValidatingAdmissionPolicy 'scope' with binding 'scope-binding' denied request: not yours"
	cases := []struct {
		name string
		err  error
		want PolicyDenial
		ok   bool
	}{
		{"the default reason", denied(metav1.StatusReasonInvalid, 422, withBinding), PolicyDenial{Policy: "scope", Binding: "scope-binding"}, true},
		{"a policy's own reason", denied(metav1.StatusReasonForbidden, 403, withBinding), PolicyDenial{Policy: "scope", Binding: "scope-binding"}, true},
		{"without a binding", denied(metav1.StatusReasonInvalid, 422, "ValidatingAdmissionPolicy 'scope' denied request: no"), PolicyDenial{Policy: "scope"}, true},
		{"wrapped", fmt.Errorf("applying: %w", denied(metav1.StatusReasonInvalid, 422, withBinding)), PolicyDenial{Policy: "scope", Binding: "scope-binding"}, true},
		{"reason and code disagree", denied(metav1.StatusReasonInvalid, 403, withBinding), PolicyDenial{}, false},
		{"RBAC: no cause", apierrors.NewForbidden(schema.GroupResource{Resource: "configmaps"}, "x", errors.New(withBinding)), PolicyDenial{}, false},
		{"a webhook", denied(metav1.StatusReasonForbidden, 403, `admission webhook "w" denied the request: ValidatingAdmissionPolicy 'scope'`), PolicyDenial{}, false},
		{"a field's cause", func() error {
			err := denied(metav1.StatusReasonInvalid, 422, "other")
			err.(*apierrors.StatusError).ErrStatus.Details.Causes = []metav1.StatusCause{{Type: metav1.CauseTypeFieldValueInvalid, Field: "data", Message: withBinding}}
			return err
		}(), PolicyDenial{}, false},
		{"text only", errors.New(withBinding), PolicyDenial{}, false},
		{"no error", nil, PolicyDenial{}, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := AsPolicyDenial(tc.err)
			assert.Equal(t, tc.ok, ok)
			assert.Equal(t, tc.want, got)
		})
	}
}

func TestParsePolicyDenial(t *testing.T) {
	for msg, ok := range map[string]bool{
		"ValidatingAdmissionPolicy 'p' with binding 'b' denied request: m": true,
		"ValidatingAdmissionPolicy 'p' denied request":                     true,
		"ValidatingAdmissionPolicy '' denied request":                      false,
		"ValidatingAdmissionPolicy 'p' with binding '' denied request":     false,
		"ValidatingAdmissionPolicy 'p' allowed request":                    false,
		"ValidatingAdmissionPolicy 'p":                                     false,
		"MutatingAdmissionPolicy 'p' denied request":                       false,
	} {
		_, got := parsePolicyDenial(msg)
		assert.Equal(t, ok, got, "%q", msg)
	}
}
