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

package apply

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

type Options struct {
	// Yes applies; without it nothing is changed and the report says what would be.
	Yes bool
	// FieldManager defaults to "kops-channels".
	FieldManager string
	// WaitTimeout bounds waiting for a CRD to be established or a terminating object to be gone;
	// default one minute.
	WaitTimeout time.Duration
	// RequestTimeout bounds every request (0: no bound), so a server that never answers fails the
	// run instead of hanging it.
	RequestTimeout time.Duration
	// EnforceTimeout bounds waiting for an enforcement probe; default 30 seconds.
	EnforceTimeout time.Duration
	// AllowDowngrade applies an addon even where it would lower a running image's version.
	AllowDowngrade bool
	Out            io.Writer
}

type Outcome string

const (
	Unchanged  Outcome = "unchanged"
	WouldApply Outcome = "would apply"
	Applied    Outcome = "applied"
	Failed     Outcome = "failed"
	Skipped    Outcome = "skipped"
	WouldPrune Outcome = "would retire"
	Retired    Outcome = "retired"
)

// TakenOver: a takeOver addon's objects were applied and recorded as ours, and retired in the same run.
const TakenOver Outcome = "taken over"

// LeftAlone: an addon left the channel but its record is not ours, so nothing of it is touched.
const LeftAlone Outcome = "left alone"

// NotForThisVersion: the addon's range does not admit the cluster's version; it is neither applied
// nor retired.
const NotForThisVersion Outcome = "not for this version"

type Result struct {
	Name    string
	ID      string
	Outcome Outcome
	Reason  string
	Err     error
}

// Apply plans and, with Options.Yes, executes the channel, returning one result per addon. A
// failing addon is not recorded and does not stop addons that do not need it; the error lists
// every failure.
func (a *Applier) Apply(ctx context.Context, ch *Channel) ([]Result, error) {
	a.bound.set(ctx)
	defer a.bound.set(nil) //nolint:staticcheck // SA1012: nil is "no run in progress", not a context passed to a call
	p, err := a.plan(ctx, ch)
	if err != nil {
		return nil, err
	}
	var results []Result
	if a.opts.Yes {
		results = a.execute(ctx, p)
	} else {
		results = a.dryRun(p)
	}
	if err := writeReport(a.opts.Out, results); err != nil {
		return results, fmt.Errorf("printing the report: %w", err)
	}
	var failures []string
	for _, r := range results {
		if r.Outcome == Failed || r.Outcome == Skipped {
			failures = append(failures, fmt.Sprintf("%s: %s", r.Name, r.Reason))
		}
	}
	if len(failures) > 0 {
		return results, fmt.Errorf("%d addon(s) not applied:\n  %s", len(failures), strings.Join(failures, "\n  "))
	}
	return results, nil
}

func objectName(o *unstructured.Unstructured) string {
	if ns := o.GetNamespace(); ns != "" {
		return ns + "/" + o.GetName()
	}
	return o.GetName()
}
