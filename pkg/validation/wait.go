package validation

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"
)

// Wait validates until the cluster is healthy or wait has passed, checking every interval and
// writing a line of progress after each failed attempt. With wait zero it validates once. It
// returns the last result; ctx cancels it early.
func (v *Validator) Wait(ctx context.Context, e *Expected, wait, interval time.Duration, progress io.Writer) *Result {
	deadline := time.Now().Add(wait)
	for {
		r := v.Validate(ctx, e)
		left := time.Until(deadline)
		if r.Healthy() || wait <= 0 || left <= 0 || ctx.Err() != nil {
			return r
		}
		sleep := min(interval, left)
		fmt.Fprintf(progress, "Validation failed (%s), next check in %s, %s left\n", summary(r), sleep.Round(time.Millisecond), left.Round(time.Second))
		select {
		case <-ctx.Done():
			return r
		case <-time.After(sleep):
		}
	}
}

// summary names the failing checks in one line.
func summary(r *Result) string {
	failures := r.Failures()
	names := make([]string, 0, len(failures))
	for _, f := range failures {
		names = append(names, f.Kind+" "+f.Name+": "+f.Message)
	}
	return fmt.Sprintf("%d of %d checks failing: %s", len(failures), len(r.Checks), strings.Join(names, "; "))
}
