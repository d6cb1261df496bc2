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
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/blang/semver/v4"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"

	"k8s.io/kops/channels/pkg/api"
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

// Applier applies channels to one cluster.
type Applier struct {
	dynamic   dynamic.Interface
	resources *serverResources
	// crdMappings are the resources of the CRDs this run established, known from the CRDs
	// themselves, so that their custom resources need no new discovery round. The CRDs of one
	// phase are awaited together: crdMu guards the map.
	crdMu       sync.Mutex
	crdMappings map[schema.GroupVersionKind]*meta.RESTMapping
	bound       *runBound
	// config is the rest config every client is made from (enforcement probes act as other users).
	config *rest.Config
	opts   Options
	// version is the API server's, read when an addon names a kubernetesVersion range.
	version *semver.Version
}

// New connects to the cluster behind config.
func New(config *rest.Config, opts Options) (*Applier, error) {
	if opts.FieldManager == "" {
		opts.FieldManager = "kops-channels"
	}
	if opts.WaitTimeout == 0 {
		opts.WaitTimeout = time.Minute
	}
	if opts.EnforceTimeout == 0 {
		opts.EnforceTimeout = 30 * time.Second
	}
	if opts.Out == nil {
		opts.Out = io.Discard
	}
	config = ClientConfig(config, opts.RequestTimeout)
	bound := &runBound{}
	config.Wrap(bound.wrap)
	// One HTTP client (one connection pool, one TLS handshake) and one rate limiter for both.
	httpClient, err := rest.HTTPClientFor(config)
	if err != nil {
		return nil, err
	}
	dyn, err := dynamic.NewForConfigAndClient(config, httpClient)
	if err != nil {
		return nil, err
	}
	discoveryConfig := rest.CopyConfig(config)
	discoveryConfig.GroupVersion = &schema.GroupVersion{}
	discoveryConfig.NegotiatedSerializer = serializer.NewCodecFactory(runtime.NewScheme()).WithoutConversion()
	discoveryClient, err := rest.UnversionedRESTClientForConfigAndClient(discoveryConfig, httpClient)
	if err != nil {
		return nil, err
	}
	return &Applier{
		dynamic: dyn, resources: &serverResources{client: discoveryClient},
		crdMappings: map[schema.GroupVersionKind]*meta.RESTMapping{}, bound: bound, config: config, opts: opts,
	}, nil
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

// Result is one addon's outcome and why.
type Result struct {
	Name    string
	ID      string
	Outcome Outcome
	Reason  string
	Err     error
}

// Apply brings the cluster to the channel: every addon whose record differs is applied and
// recorded; then addons that left the channel are retired. A failing addon is reported and not
// recorded; addons that do not need it are still applied. The error lists every failure.
func (a *Applier) Apply(ctx context.Context, ch *Channel) ([]Result, error) {
	a.bound.set(ctx)
	defer a.bound.set(nil) //nolint:staticcheck // SA1012: nil is "no run in progress", not a context passed to a call
	order, err := addonOrder(ch.Addons)
	if err != nil {
		return nil, err
	}
	records, err := a.readRecords(ctx, ch)
	if err != nil {
		return nil, err
	}
	// Addons another tool recorded that this channel replaces are made ours first, so that the
	// channel's addons are applied over them and retirement hands them over as it does ours.
	results, takingOver := a.takeOver(ctx, ch, records)
	failed := map[string]bool{}
	provider := providers(ch.Addons)
	// A server that does not answer fails every addon the same way, one request timeout each:
	// the first such failure ends the run and the rest are reported as not tried.
	var unreachable error
	for _, addon := range order {
		if unreachable != nil {
			results = append(results, Result{Name: addon.Spec.Name, ID: addon.Spec.ID, Outcome: Skipped, Reason: "not tried: the API server did not answer"})
			continue
		}
		r := a.applyAddon(ctx, ch, addon, records, failed, provider)
		if r.Outcome == Failed || r.Outcome == Skipped {
			failed[addon.Spec.Name] = true
		}
		if r.Err != nil && noAnswer(ctx, r.Err) {
			unreachable = r.Err
		}
		results = append(results, r)
	}
	if unreachable == nil {
		retired, err := a.retire(ctx, ch, records, takingOver)
		if err != nil {
			return results, err
		}
		results = append(results, retired...)
	}
	if err := a.report(results); err != nil {
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

func (a *Applier) applyAddon(ctx context.Context, ch *Channel, addon *Addon, records map[string]record, failed map[string]bool, provider map[schema.GroupKind]string) Result {
	r := Result{Name: addon.Spec.Name, ID: addon.Spec.ID}
	for _, dep := range dependencies(addon, provider) {
		if failed[dep] {
			r.Outcome, r.Reason = Skipped, fmt.Sprintf("it needs the kinds of %s, which was not applied", dep)
			return r
		}
	}
	if outcome, reason, err := a.kopsFields(ctx, addon); outcome != "" {
		r.Outcome, r.Reason, r.Err = outcome, reason, err
		return r
	}
	prev := records[addon.Spec.Name].version
	r.Reason = reasonToApply(prev, addon.Spec.ID, addon.Spec.ManifestHash, a.opts.FieldManager)
	if r.Reason == "" {
		r.Outcome = Unchanged
		return r
	}
	// A downgrade is refused before anything is applied, and shown by a dry run too.
	if err := a.checkDowngrades(ctx, addon); err != nil {
		r.Outcome, r.Reason, r.Err = Failed, err.Error(), err
		return r
	}
	if prev != nil && !prev.Ours(a.opts.FieldManager) {
		note, err := a.takeoverNote(ctx, addon)
		if err != nil {
			r.Outcome, r.Reason, r.Err = Failed, "taking over: "+err.Error(), err
			return r
		}
		r.Reason += note
	}
	if !a.opts.Yes {
		r.Outcome = WouldApply
		return r
	}
	// The record's size is checked before anything is applied: an addon that cannot be recorded is
	// not applied at all.
	refs, err := a.inventoryFor(addon, prev)
	if err == nil {
		_, err = a.newRecord(ch, addon, refs)
	}
	if err != nil {
		r.Outcome, r.Reason, r.Err = Failed, err.Error(), err
		return r
	}
	if err := a.applyObjects(ctx, addon, provider); err != nil {
		if noAnswer(ctx, err) {
			err = fmt.Errorf("%w (the API server did not answer in time)", err)
		}
		r.Outcome, r.Reason, r.Err = Failed, err.Error(), err
		return r
	}
	pruned, err := a.prune(ctx, addon, prev, customIn(provider))
	if err != nil {
		r.Outcome, r.Reason, r.Err = Failed, err.Error(), err
		return r
	}
	written, err := a.newRecord(ch, addon, without(refs, pruned))
	if err == nil {
		err = a.writeRecord(ctx, addon.Namespace(), addon.Spec.Name, written)
	}
	if err != nil {
		r.Outcome, r.Reason, r.Err = Failed, err.Error(), err
		return r
	}
	// Retirement, later in this run, may hand objects over to this addon and adds them to this record.
	records[addon.Spec.Name] = record{namespace: addon.Namespace(), version: written}
	r.Outcome = Applied
	return r
}

// applyObjects server-side applies the addon's objects in phase order, waiting for each CRD to be
// established before anything may use it, and for each admission policy binding with an
// enforcement probe to be proven enforced before the rights and workloads it confines. The objects of one phase do not depend on each other
// (a RoleBinding may name a Role that does not exist yet) and are sent together, so a cold apply
// costs a few round trips rather than one per object.
func (a *Applier) applyObjects(ctx context.Context, addon *Addon, provider map[schema.GroupKind]string) error {
	objs := append([]*unstructured.Unstructured(nil), addon.Objects...)
	custom := customIn(provider)
	sortObjects(objs, custom)
	phase := phaseOf(custom)
	for start := 0; start < len(objs); {
		end := start + 1
		for end < len(objs) && phase(objs[end]) == phase(objs[start]) {
			end++
		}
		if err := a.applyTogether(ctx, objs[start:end]); err != nil {
			return err
		}
		if err := a.awaitReady(ctx, objs[start:end]); err != nil {
			return err
		}
		start = end
	}
	return nil
}

// awaitReady waits, for the objects of one phase together, until each CRD is established and each
// policy binding with a probe is proven enforced; the first error in the manifest's order is
// returned.
func (a *Applier) awaitReady(ctx context.Context, objs []*unstructured.Unstructured) error {
	errs := make([]error, len(objs))
	var wg sync.WaitGroup
	for i, obj := range objs {
		switch {
		case obj.GroupVersionKind().GroupKind() == crdKind:
			wg.Go(func() { errs[i] = a.waitEstablished(ctx, obj.GetName()) })
		case obj.GetAnnotations()[api.EnforcementProbeAnnotation] != "":
			wg.Go(func() { errs[i] = a.proveEnforced(ctx, obj) })
		}
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// maxInFlight bounds the requests one addon has open at once.
const maxInFlight = 8

// applyTogether applies objects concurrently; the error is the first in the manifest's order.
func (a *Applier) applyTogether(ctx context.Context, objs []*unstructured.Unstructured) error {
	clients := make([]dynamic.ResourceInterface, len(objs))
	for i, obj := range objs {
		client, err := a.resourceFor(ctx, obj) // discovery is not safe to race; it is cached after the first
		if err != nil {
			return fmt.Errorf("%s %s: %w", obj.GetKind(), objectName(obj), err)
		}
		clients[i] = client
	}
	errs := make([]error, len(objs))
	slots := make(chan struct{}, maxInFlight)
	var wg sync.WaitGroup
	for i, obj := range objs {
		wg.Add(1)
		slots <- struct{}{}
		go func() {
			defer func() { <-slots; wg.Done() }()
			errs[i] = a.applyObject(ctx, clients[i], obj)
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			return fmt.Errorf("%s %s: %w", objs[i].GetKind(), objectName(objs[i]), err)
		}
	}
	return nil
}

var namespaceResource = schema.GroupVersionResource{Version: "v1", Resource: "namespaces"}

// record is an addon's record and the namespace holding it.
type record struct {
	namespace string
	version   *ChannelVersion
}

// readRecords reads the records of every namespace that may hold one: kube-system and the
// namespaces the channel's addons name.
func (a *Applier) readRecords(ctx context.Context, ch *Channel) (map[string]record, error) {
	namespaces := map[string]bool{DefaultNamespace: true}
	for _, addon := range ch.Addons {
		namespaces[addon.Namespace()] = true
	}
	records := map[string]record{}
	for _, ns := range slices.Sorted(maps.Keys(namespaces)) {
		obj, err := a.dynamic.Resource(namespaceResource).Get(ctx, ns, metav1.GetOptions{})
		if err != nil {
			if apierrors.IsNotFound(err) {
				continue
			}
			return nil, fmt.Errorf("reading the addon records on namespace %s: %w", ns, err)
		}
		for key, value := range obj.GetAnnotations() {
			name, ok := strings.CutPrefix(key, AnnotationPrefix)
			if !ok {
				continue
			}
			v, err := ParseChannelVersion(value)
			if err != nil {
				return nil, fmt.Errorf("namespace %s, annotation %s: %w", ns, key, err)
			}
			records[name] = record{namespace: ns, version: v}
		}
	}
	return records, nil
}

// writeRecord sets (or, with nil, removes) an addon's record annotation on its namespace.
func (a *Applier) writeRecord(ctx context.Context, namespace, name string, v *ChannelVersion) error {
	var value interface{}
	if v != nil {
		value = v.Encode()
	}
	patch, err := json.Marshal(map[string]interface{}{"metadata": map[string]interface{}{"annotations": map[string]interface{}{AnnotationPrefix + name: value}}})
	if err != nil {
		return err
	}
	if _, err := a.dynamic.Resource(namespaceResource).Patch(ctx, namespace, types.MergePatchType, patch, metav1.PatchOptions{FieldManager: a.opts.FieldManager}); err != nil {
		return fmt.Errorf("recording addon %s on namespace %s: %w", name, namespace, err)
	}
	return nil
}

// report prints one row per addon under a header, as kops's channels does: what happened to it
// and, in plain words, why. A dry run that would change something ends with the reminder.
func (a *Applier) report(results []Result) error {
	changes := false
	var buf strings.Builder
	w := tabwriter.NewWriter(&buf, 0, 4, 2, ' ', 0)
	// Writes into buf cannot fail; the whole report is written to a.opts.Out at the end, checked.
	_, _ = fmt.Fprintln(w, "ADDON\tOUTCOME\tREASON")
	for _, r := range results {
		name := r.Name
		if r.ID != "" {
			name += " (" + r.ID + ")"
		}
		reason := r.Reason
		if reason == "" {
			reason = "-"
		}
		_, _ = fmt.Fprintf(w, "%s\t%s\t%s\n", name, r.Outcome, reason)
		changes = changes || r.Outcome == WouldApply || r.Outcome == WouldPrune
	}
	_ = w.Flush()
	if changes {
		buf.WriteString("\nMust specify --yes to apply changes\n")
	}
	_, err := io.WriteString(a.opts.Out, buf.String())
	return err
}

func objectName(o *unstructured.Unstructured) string {
	if ns := o.GetNamespace(); ns != "" {
		return ns + "/" + o.GetName()
	}
	return o.GetName()
}

func sleep(ctx context.Context, d time.Duration) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(d):
		return nil
	}
}
