package fi

import (
	"fmt"
	"strings"
)

// RunError lists every task that did not succeed, so a user fixes all
// problems from one run instead of one per run.
type RunError struct {
	Failed  []Result // in graph order
	Skipped []Result // in graph order
}

// newRunError returns nil when every task succeeded.
func newRunError(results []Result) error {
	var e RunError
	for _, r := range results {
		switch r.Status {
		case StatusFailed:
			e.Failed = append(e.Failed, r)
		case StatusSkipped:
			e.Skipped = append(e.Skipped, r)
		}
	}
	if len(e.Failed) == 0 && len(e.Skipped) == 0 {
		return nil
	}
	return &e
}

func (e *RunError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d task(s) failed, %d skipped:", len(e.Failed), len(e.Skipped))
	for _, r := range e.Failed {
		fmt.Fprintf(&b, "\n  %v", r.Err)
	}
	for _, r := range e.Skipped {
		if len(r.SkippedBecause) > 0 {
			fmt.Fprintf(&b, "\n  %s skipped: depends on failed %s", r.Key, joinKeys(r.SkippedBecause))
		} else {
			fmt.Fprintf(&b, "\n  %s skipped: %v", r.Key, r.Err)
		}
	}
	return b.String()
}

// Unwrap exposes the individual failures to errors.Is and errors.As.
func (e *RunError) Unwrap() []error {
	var errs []error
	for _, r := range e.Failed {
		errs = append(errs, r.Err)
	}
	for _, r := range e.Skipped {
		if r.Err != nil {
			errs = append(errs, r.Err)
			break // every cancelled task carries the same context error
		}
	}
	return errs
}

func joinKeys(keys []TaskKey) string {
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k.String()
	}
	return strings.Join(parts, ", ")
}
