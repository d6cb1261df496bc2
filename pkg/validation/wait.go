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
	"io"
	"strings"
	"syscall"
	"time"
	"unicode/utf8"
)

// WaitOptions bound validations in time.
type WaitOptions struct {
	// Timeout bounds one validation: all its requests run under one deadline this far away, so a
	// server that does not answer costs Timeout once, not once per request. It must be positive.
	Timeout time.Duration
	// Wait, when positive, repeats the validation until the cluster is healthy (Count times in a
	// row) or Wait has passed since the first one began: no validation outlives it. Zero
	// validates once.
	Wait time.Duration
	// Interval is the pause between the end of one validation and the start of the next; a next
	// one starts only if the wait has time left after the pause.
	Interval time.Duration
	// Count is how many validations in a row must find the cluster healthy, as kops's --count;
	// zero or one is one. More than one needs a Wait.
	Count int
	// Progress gets one short line after each validation that another one follows.
	Progress io.Writer
}

// CountError is a wait that ended with the cluster healthy, but not for Count validations in a
// row: the last result is healthy, and the cluster may still be settling.
type CountError struct {
	Passed, Count int
	Wait          time.Duration
}

func (e *CountError) Error() string {
	return fmt.Sprintf("the cluster passed %d validations in a row of the %d --count requires before the wait (%s) was over", e.Passed, e.Count, e.Wait)
}

// Wait validates until the cluster is healthy o.Count times in a row or o.Wait has passed (once
// when o.Wait is zero), each validation bounded by o.Timeout and by the end of the wait. It returns
// the last outcome: a result (healthy or not; a healthy one short of the count with a
// *CountError), or the *UnreachableError of a validation that could not talk to the server. A
// validation that the end of the wait cuts short tells less than the one before it, so the one
// before it is returned instead. ctx cancels it early.
func (v *Validator) Wait(ctx context.Context, e *Expected, o WaitOptions) (*Result, error) {
	if o.Timeout <= 0 || o.Wait < 0 || (o.Wait > 0 && o.Interval <= 0) {
		return nil, fmt.Errorf("timeout %s, wait %s, interval %s: the timeout must be positive, the wait not negative, and the interval positive with a wait", o.Timeout, o.Wait, o.Interval)
	}
	count := max(o.Count, 1)
	if count > 1 && o.Wait == 0 {
		return nil, fmt.Errorf("a count of %d validations needs a wait to make them in", count)
	}
	progress := o.Progress
	if progress == nil {
		progress = io.Discard
	}
	end := time.Now().Add(o.Wait)
	passed := 0
	r, err := v.validateWithin(ctx, e, o, end)
	for attempt := 1; ; attempt++ {
		healthy := err == nil && r.Healthy()
		if healthy {
			passed++
		} else {
			passed = 0
		}
		left := time.Until(end)
		switch {
		case passed >= count:
			return r, nil
		case o.Wait == 0 || left <= o.Interval || ctx.Err() != nil:
			if healthy {
				return r, &CountError{Passed: passed, Count: count, Wait: o.Wait}
			}
			return r, err
		}
		outcome := "failed: " + summary(r, err)
		if healthy {
			outcome = fmt.Sprintf("passed (%d of %d in a row)", passed, count)
		}
		_, _ = fmt.Fprintln(progress, progressLine(attempt, outcome, o.Interval, left)) // only a progress note; the outcome is returned
		select {
		case <-ctx.Done():
			return r, err
		case <-time.After(o.Interval):
		}
		next, nextErr := v.validateWithin(ctx, e, o, end)
		var limit *TimeLimitError
		if errors.As(nextErr, &limit) && limit.Limit == LimitWait {
			if healthy {
				return r, &CountError{Passed: passed, Count: count, Wait: o.Wait}
			}
			return r, err
		}
		r, err = next, nextErr
	}
}

// validateWithin validates once under a deadline of o.Timeout or the end of the wait, whichever
// comes first; the deadline's cause says which.
func (v *Validator) validateWithin(ctx context.Context, e *Expected, o WaitOptions, end time.Time) (*Result, error) {
	limit := o.Timeout
	var cause error = &TimeLimitError{Limit: LimitValidation, Duration: o.Timeout}
	if left := time.Until(end); o.Wait > 0 && left < limit {
		limit, cause = left, &TimeLimitError{Limit: LimitWait, Duration: o.Wait}
	}
	ctx, cancel := context.WithTimeoutCause(ctx, limit, cause)
	defer cancel()
	return v.Validate(ctx, e)
}

// ProgressWidth bounds a progress line, so that it fits a terminal line: the server and the
// failing checks in full are in the outcome printed at the end, not on every line.
const ProgressWidth = 100

// progressLine says in one line of at most ProgressWidth characters how an attempt went and when
// the next one starts.
func progressLine(attempt int, outcome string, interval, left time.Duration) string {
	head := fmt.Sprintf("Validation %d ", attempt)
	tail := fmt.Sprintf("; next in %s, %s left", interval.Round(time.Millisecond), left.Round(time.Second))
	room := ProgressWidth - utf8.RuneCountInString(head) - utf8.RuneCountInString(tail)
	if utf8.RuneCountInString(outcome) > room {
		outcome = string([]rune(outcome)[:max(room-1, 0)]) + "…"
	}
	return head + outcome + tail
}

// summary says briefly why a validation failed: the failing checks by name, or why the server
// could not be reached (not which server: the final error names it once).
func summary(r *Result, err error) string {
	var unreachable *UnreachableError
	switch {
	case errors.As(err, &unreachable):
		return "cannot reach the API server (" + cause(unreachable.Err) + ")"
	case err != nil:
		return err.Error()
	}
	failures := r.Failures()
	names := make([]string, 0, len(failures))
	for _, f := range failures {
		names = append(names, f.Kind+" "+f.Name)
	}
	return fmt.Sprintf("%d of %d checks failing: %s", len(failures), len(r.Checks), strings.Join(names, ", "))
}

// cause is the heart of a transport error: "connection refused" rather than the dial's address.
func cause(err error) string {
	var errno syscall.Errno
	var limit *TimeLimitError
	var tooLarge *ErrResponseTooLarge
	switch {
	case errors.As(err, &limit):
		return fmt.Sprintf("no answer within %s", limit.Duration)
	case errors.As(err, &tooLarge):
		return tooLarge.Error()
	case errors.As(err, &errno):
		return errno.Error()
	}
	return describe(err)
}
