package validation

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"
)

// WaitOptions bound validations in time.
type WaitOptions struct {
	// Timeout bounds one validation: all its requests run under one deadline this far away, so a
	// server that does not answer costs Timeout once, not once per request. It must be positive.
	Timeout time.Duration
	// Wait, when positive, repeats the validation until the cluster is healthy or Wait has passed
	// since the first one began: no validation outlives it. Zero validates once.
	Wait time.Duration
	// Interval is the pause between the end of one validation and the start of the next; a next
	// one starts only if the wait has time left after the pause.
	Interval time.Duration
	// Progress gets one line after each failed validation that another one follows.
	Progress io.Writer
}

// Wait validates until the cluster is healthy or o.Wait has passed (once when o.Wait is zero),
// each validation bounded by o.Timeout and by the end of the wait. It returns the last outcome: a
// result (healthy or not), or the *UnreachableError of a validation that could not talk to the
// server. A validation that the end of the wait cuts short tells less than the one before it,
// so the one before it is returned instead. ctx cancels it early.
func (v *Validator) Wait(ctx context.Context, e *Expected, o WaitOptions) (*Result, error) {
	if o.Timeout <= 0 || o.Wait < 0 || (o.Wait > 0 && o.Interval <= 0) {
		return nil, fmt.Errorf("timeout %s, wait %s, interval %s: the timeout must be positive, the wait not negative, and the interval positive with a wait", o.Timeout, o.Wait, o.Interval)
	}
	progress := o.Progress
	if progress == nil {
		progress = io.Discard
	}
	end := time.Now().Add(o.Wait)
	r, err := v.validateWithin(ctx, e, o, end)
	for {
		left := time.Until(end)
		if (err == nil && r.Healthy()) || o.Wait == 0 || left <= o.Interval || ctx.Err() != nil {
			return r, err
		}
		fmt.Fprintf(progress, "Validation failed (%s), next check in %s, %s left\n", summary(r, err), o.Interval.Round(time.Millisecond), left.Round(time.Second))
		select {
		case <-ctx.Done():
			return r, err
		case <-time.After(o.Interval):
		}
		next, nextErr := v.validateWithin(ctx, e, o, end)
		var limit *TimeLimitError
		if errors.As(nextErr, &limit) && limit.Limit == LimitWait {
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

// summary says in one line why a validation failed.
func summary(r *Result, err error) string {
	if err != nil {
		return err.Error()
	}
	failures := r.Failures()
	names := make([]string, 0, len(failures))
	for _, f := range failures {
		names = append(names, f.Kind+" "+f.Name+": "+f.Message)
	}
	return fmt.Sprintf("%d of %d checks failing: %s", len(failures), len(r.Checks), strings.Join(names, "; "))
}
