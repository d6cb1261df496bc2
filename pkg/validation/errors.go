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

// UnreachableError is a validation that could not talk to the API server: no connection, a TLS
// or DNS failure, no answer before the deadline, an answer too large or not from a Kubernetes API
// server, or credentials the discovery request was refused with. It is said once for the whole
// validation, not once per check: every check would fail the same way.
type UnreachableError struct {
	// Server is the API server's URL, from the kubeconfig.
	Server string
	// Request is what was asked when it failed, e.g. "GET /api" or "get namespaces/kube-system".
	Request string
	Err     error
}

func (e *UnreachableError) Error() string {
	return fmt.Sprintf("cannot validate against the API server %s: %s: %s", e.Server, e.Request, describe(e.Err))
}

func (e *UnreachableError) Unwrap() error { return e.Err }

// describe says why a request failed, without client-go's repetition of the request's URL (the
// server and the request are already named).
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

// unreachable wraps the failure of a request that got no usable answer. When the validation's
// context is done, its cause (a time limit reached, or an interrupt) is the reason, whatever
// error the transport reported on the way; a request that timed out on its own ran into the
// client's timeout of one request.
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

// answered tells a failure the server answered (a Kubernetes status such as 404 Not Found or 403
// Forbidden on one object, which fails one check) from a failure to get an answer at all (which
// ends the validation).
func answered(err error) bool {
	var status apierrors.APIStatus
	return errors.As(err, &status)
}

// Limit names one of the time limits of a validation.
type Limit string

// The time limits of a validation.
const (
	// LimitValidation bounds one validation, all its requests together.
	LimitValidation Limit = "validation"
	// LimitWait is the end of the wait for a healthy cluster: no validation outlives it.
	LimitWait Limit = "wait"
	// LimitRequest bounds each request on its own (the client's timeout).
	LimitRequest Limit = "request"
)

// TimeLimitError is the cause of a validation cut short by one of its time limits. It is a
// context.DeadlineExceeded.
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

// Is makes the error a context.DeadlineExceeded.
func (e *TimeLimitError) Is(target error) bool { return target == context.DeadlineExceeded }
