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

type WaitOptions struct {
	// Timeout bounds one validation under one deadline, so a silent server costs it once, not per request.
	Timeout time.Duration
	// Wait, when positive, repeats validation until healthy Count times in a row or Wait has passed.
	Wait     time.Duration
	Interval time.Duration
	// Count is kops's --count; more than one needs a Wait.
	Count    int
	Progress io.Writer
}

// CountError: the cluster was healthy, but not Count times in a row; it may still be settling.
type CountError struct {
	Passed, Count int
	Wait          time.Duration
}

func (e *CountError) Error() string {
	return fmt.Sprintf("the cluster passed %d validations in a row of the %d --count requires before the wait (%s) was over", e.Passed, e.Count, e.Wait)
}

// Wait returns the last outcome: a result (a healthy one short of Count with *CountError) or an
// *UnreachableError. A validation cut short by the wait's end yields to the one before it.
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
		_, _ = fmt.Fprintln(progress, progressLine(attempt, outcome, o.Interval, left))
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

// validateWithin's deadline cause says whether o.Timeout or the wait's end came first.
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

const ProgressWidth = 100

func progressLine(attempt int, outcome string, interval, left time.Duration) string {
	head := fmt.Sprintf("Validation %d ", attempt)
	tail := fmt.Sprintf("; next in %s, %s left", interval.Round(time.Millisecond), left.Round(time.Second))
	room := ProgressWidth - utf8.RuneCountInString(head) - utf8.RuneCountInString(tail)
	if utf8.RuneCountInString(outcome) > room {
		outcome = string([]rune(outcome)[:max(room-1, 0)]) + "…"
	}
	return head + outcome + tail
}

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
