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

package fi

import (
	"fmt"
	"strings"
)

// RunError lists every task that did not succeed, so all problems are fixed from one run.
type RunError struct {
	Failed  []Result // in graph order
	Skipped []Result // in graph order
}

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
