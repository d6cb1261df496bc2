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
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
)

// UnreachableError is a validation that could not talk to the API server at all; it is reported
// once for the validation, not per check.
type UnreachableError struct {
	Server string
	// Request is what failed, e.g. "GET /api".
	Request string
	Err     error
}

func (e *UnreachableError) Error() string {
	return fmt.Sprintf("cannot validate against the API server %s: %s: %s", e.Server, e.Request, describe(e.Err))
}

func (e *UnreachableError) Unwrap() error { return e.Err }

// describe drops client-go's repetition of the URL.
func describe(err error) string {
	var urlErr *url.Error
	if errors.As(err, &urlErr) {
		err = urlErr.Err
	}
	switch {
	case apierrors.IsUnauthorized(err):
		return "the server refused the kubeconfig's credentials (401 Unauthorized): " + err.Error()
	case apierrors.IsForbidden(err):
		return "the kubeconfig's user may not read the API (403 Forbidden): " + err.Error()
	}
	return err.Error()
}

// unreachable prefers the validation context's cause (time limit, interrupt) to the transport's error.
func (v *Validator) unreachable(ctx context.Context, request string, err error) error {
	var netErr net.Error
	switch {
	case ctx.Err() != nil:
		err = context.Cause(ctx)
	case errors.Is(err, context.DeadlineExceeded) || (errors.As(err, &netErr) && netErr.Timeout()):
		err = &TimeLimitError{Limit: LimitRequest, Duration: v.RequestTimeout}
	}
	return &UnreachableError{Server: v.Server, Request: request, Err: err}
}

// answered tells a server's refusal of one object (fails one check) from no answer (ends the validation).
func answered(err error) bool {
	var status apierrors.APIStatus
	return errors.As(err, &status)
}

type Limit string

const (
	LimitValidation Limit = "validation"
	// LimitWait is the end of the wait for a healthy cluster: no validation outlives it.
	LimitWait    Limit = "wait"
	LimitRequest Limit = "request"
)

// TimeLimitError is a context.DeadlineExceeded naming which limit was hit.
type TimeLimitError struct {
	Limit    Limit
	Duration time.Duration
}

func (e *TimeLimitError) Error() string {
	switch e.Limit {
	case LimitWait:
		return fmt.Sprintf("the wait for a healthy cluster (%s) ran out: %v", e.Duration, context.DeadlineExceeded)
	case LimitRequest:
		return fmt.Sprintf("no answer within the time limit of one request (%s): %v", e.Duration, context.DeadlineExceeded)
	}
	return fmt.Sprintf("no answer within the time limit of one validation (%s): %v", e.Duration, context.DeadlineExceeded)
}

func (e *TimeLimitError) Is(target error) bool { return target == context.DeadlineExceeded }
