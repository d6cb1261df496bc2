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

// Options tune an Applier.
type Options struct {
	// Yes applies; without it nothing is changed and the report says what would be.
	Yes bool
	// FieldManager owns the applied fields (server-side apply); default "kops-channels".
	FieldManager string
	// WaitTimeout bounds waiting for a CRD to be established, or for an object being deleted to
	// be gone before it is applied afresh; default one minute.
	WaitTimeout time.Duration
	// RequestTimeout bounds every request to the API server (0: no bound), so that a server that
	// accepts connections and never answers fails the run instead of hanging it.
	RequestTimeout time.Duration
	// EnforceTimeout bounds waiting for an admission policy binding that carries an enforcement
	// probe to be enforced; default 30 seconds.
	EnforceTimeout time.Duration
	// AllowDowngrade applies an addon even where it would replace a running image with a lower
	// version of the same repository; without it such an addon is refused (see checkDowngrades).
	AllowDowngrade bool
	Out            io.Writer
}

// Outcome is what happened to one addon.
type Outcome string

// The outcomes an addon can have.
const (
	Unchanged  Outcome = "unchanged"
	WouldApply Outcome = "would apply"
	Applied    Outcome = "applied"
	Failed     Outcome = "failed"
	Skipped    Outcome = "skipped"
	WouldPrune Outcome = "would retire"
	Retired    Outcome = "retired"
)

// TakenOver is the outcome of an addon of the channel's takeOver list whose record another tool
// wrote: its manifest was applied over its objects and recorded as ours, and it is retired in the
// same run like any addon of ours that left the channel.
const TakenOver Outcome = "taken over"

// LeftAlone is the outcome of an addon that left the channel but whose record another tool wrote:
// it is reported and nothing of it is touched.
const LeftAlone Outcome = "left alone"

// NotForThisVersion is the outcome of an addon whose kubernetesVersion range does not admit the
// cluster's version: it is not applied, and, being in the channel, not retired either.
const NotForThisVersion Outcome = "not for this version"

// Result is one addon's outcome and why.
type Result struct {
	Name    string
	ID      string
	Outcome Outcome
	Reason  string
	Err     error
}

// Apply brings the cluster to the channel. It plans (reads only: what each addon needs), then,
// with Options.Yes, executes the plan; either way it reports one row per addon. A failing addon is
// reported and not recorded; addons that do not need it are still applied. The error lists every
// failure.
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
