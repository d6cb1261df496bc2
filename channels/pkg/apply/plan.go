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
	"maps"
	"slices"
	"sort"
	"strings"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"k8s.io/kops/channels/pkg/api"
)

// action is what an addon needs written; actionNone when its plan's result is final.
type action int

const (
	actionNone action = iota
	actionApply
	actionTakeOver
	// actionPKI creates only the addon's missing PKI: its objects are as recorded.
	actionPKI
)

type addonPlan struct {
	addon  *Addon
	action action
	// result is final when action is actionNone; otherwise it holds the reason for the action.
	result Result
	prev   *api.ChannelVersion
	// refs are what the record lists once the action is done, before pruning.
	refs            []api.ObjectRef
	recordNamespace string
	// pki is what the addon's PKI (needsPKI) lacks, created before its objects are applied.
	pki *pkiPlan
}

// plan is what the channel needs, in the order execute writes it.
type plan struct {
	channel   *Channel
	records   map[string]record
	provider  map[schema.GroupKind]string
	takeOvers []*addonPlan
	addons    []*addonPlan
	// unreachable is set when the API server stopped answering: later addons are not tried and
	// nothing is retired.
	unreachable error
}

// plan reads the cluster and writes nothing.
func (a *Applier) plan(ctx context.Context, ch *Channel) (*plan, error) {
	order, err := addonOrder(ch.Addons)
	if err != nil {
		return nil, err
	}
	records, err := a.readRecords(ctx, ch)
	if err != nil {
		return nil, err
	}
	p := &plan{channel: ch, records: records, provider: providers(ch.Addons)}
	p.takeOvers = a.planTakeOvers(ctx, p)
	failed := map[string]bool{}
	for _, addon := range order {
		var ap *addonPlan
		if p.unreachable != nil {
			ap = &addonPlan{addon: addon, result: notTried(addon)}
		} else {
			ap = a.planAddon(ctx, p, addon, failed)
		}
		if ap.result.Outcome == Failed || ap.result.Outcome == Skipped {
			failed[addon.Spec.Name] = true
		}
		if ap.result.Err != nil && noAnswer(ctx, ap.result.Err) {
			p.unreachable = ap.result.Err
		}
		p.addons = append(p.addons, ap)
	}
	return p, nil
}

func notTried(addon *Addon) Result {
	return Result{Name: addon.Spec.Name, ID: addon.Spec.ID, Outcome: Skipped, Reason: "not tried: the API server did not answer"}
}

// skippedFor returns the result of an addon one of whose dependencies failed, or nil.
func skippedFor(addon *Addon, provider map[schema.GroupKind]string, failed map[string]bool) *Result {
	for _, dep := range dependencies(addon, provider) {
		if failed[dep] {
			return &Result{Name: addon.Spec.Name, ID: addon.Spec.ID, Outcome: Skipped, Reason: fmt.Sprintf("it needs the kinds of %s, which was not applied", dep)}
		}
	}
	return nil
}

func (a *Applier) planAddon(ctx context.Context, p *plan, addon *Addon, failed map[string]bool) *addonPlan {
	ap := &addonPlan{addon: addon, recordNamespace: addon.Spec.RecordNamespace(), result: Result{Name: addon.Spec.Name, ID: addon.Spec.ID}}
	fail := func(reason string, err error) *addonPlan {
		ap.result.Outcome, ap.result.Reason, ap.result.Err = Failed, reason, err
		return ap
	}
	if skipped := skippedFor(addon, p.provider, failed); skipped != nil {
		ap.result = *skipped
		return ap
	}
	if outcome, reason, err := a.kopsFields(ctx, addon); outcome != "" {
		ap.result.Outcome, ap.result.Reason, ap.result.Err = outcome, reason, err
		return ap
	}
	pki, err := a.planPKI(ctx, addon, p.provider)
	if err != nil {
		return fail(err.Error(), err)
	}
	ap.pki = pki
	ap.prev = p.records[addon.Spec.Name].version
	ap.result.Reason = reasonToApply(ap.prev, addon.Spec.ID, addon.Spec.ManifestHash, a.opts.FieldManager)
	switch {
	case ap.result.Reason == "" && pki != nil:
		ap.result.Reason = "needsPKI: missing, so created: " + pki.String() + "; its objects are as recorded"
		ap.action = actionPKI
		return ap
	case ap.result.Reason == "":
		ap.result.Outcome = Unchanged
		return ap
	case pki != nil:
		ap.result.Reason += "; needsPKI: created first: " + pki.String()
	}
	if err := a.checkDowngrades(ctx, addon); err != nil {
		return fail(err.Error(), err)
	}
	if ap.prev != nil && !ap.prev.Ours(a.opts.FieldManager) {
		note, err := a.takeoverNote(ctx, addon)
		if err != nil {
			return fail("taking over: "+err.Error(), err)
		}
		ap.result.Reason += note
	}
	// An addon that cannot be recorded is not applied at all.
	refs, err := a.inventoryFor(addon, ap.prev)
	if err == nil {
		_, err = a.newRecord(p.channel, addon, refs)
	}
	if err != nil {
		return fail(err.Error(), err)
	}
	ap.refs, ap.action = refs, actionApply
	return ap
}

// planTakeOvers plans, for each takeOver addon whose record kops's channels wrote from this
// channel's location, to apply the existing objects of its manifest that carry that tool's label
// and record them as ours, so retirement treats them like our own. Nothing is created, and an
// object without the label is someone else's and is not touched.
func (a *Applier) planTakeOvers(ctx context.Context, p *plan) []*addonPlan {
	var out []*addonPlan
	for _, addon := range p.channel.TakeOver {
		rec, ok := p.records[addon.Spec.Name]
		if !ok || rec.version.Ours(a.opts.FieldManager) || rec.version.Channel == nil || *rec.version.Channel != p.channel.Location {
			continue
		}
		ap := &addonPlan{addon: addon, recordNamespace: rec.namespace, prev: rec.version, result: Result{Name: addon.Spec.Name, ID: addon.Spec.ID,
			Reason: "recorded by another tool and replaced in this channel: its objects are taken over, then retired"}}
		made, foreign, err := a.madeByOthers(ctx, addon)
		if len(foreign) > 0 {
			ap.result.Reason += "; not touched, without its label: " + strings.Join(foreign, ", ")
		}
		if err == nil {
			ap.addon = made
			ap.refs, err = a.inventoryFor(made, nil)
		}
		if err == nil {
			_, err = a.newRecord(p.channel, made, ap.refs)
		}
		if err == nil {
			err = a.checkDowngrades(ctx, made)
		}
		if err != nil {
			ap.result.Outcome, ap.result.Reason, ap.result.Err = Failed, "taking over: "+err.Error(), err
		} else {
			ap.action = actionTakeOver
		}
		out = append(out, ap)
	}
	return out
}

// planRetire splits the addons that left the channel into retired and left alone. Only records we
// wrote (Ours) from this same channel are retired; other channels' and kops's records are left
// alone. takingOver are takeovers still to be written, reported by their own result.
func (a *Applier) planRetire(ch *Channel, records map[string]record, takingOver map[string]bool) (leftAlone []Result, retire []string) {
	inChannel := map[string]bool{}
	for _, addon := range ch.Addons {
		inChannel[addon.Spec.Name] = true
	}
	for _, name := range slices.Sorted(maps.Keys(records)) {
		rec := records[name]
		fromHere := rec.version.Channel != nil && *rec.version.Channel == ch.Location
		switch {
		case !fromHere || inChannel[name] || takingOver[name]:
		case rec.version.Ours(a.opts.FieldManager):
			retire = append(retire, name)
		default:
			leftAlone = append(leftAlone, Result{Name: name, ID: rec.version.ID, Outcome: LeftAlone,
				Reason: "managed by another tool: recorded by kops's channels or an older channels, not in this channel; nothing of it is touched"})
		}
	}
	return leftAlone, retire
}

func (a *Applier) dryRun(p *plan) []Result {
	var results []Result
	takingOver := map[string]bool{}
	for _, ap := range p.takeOvers {
		r := ap.result
		if ap.action != actionNone {
			r.Outcome = WouldApply
			takingOver[ap.addon.Spec.Name] = true
		}
		results = append(results, r)
	}
	for _, ap := range p.addons {
		r := ap.result
		if ap.action != actionNone {
			r.Outcome = WouldApply
		}
		results = append(results, r)
	}
	if p.unreachable != nil {
		return results
	}
	leftAlone, retire := a.planRetire(p.channel, p.records, takingOver)
	retired := leftAlone
	for _, name := range retire {
		retired = append(retired, Result{Name: name, Outcome: WouldPrune, Reason: "left the channel"})
	}
	return append(results, sortedByName(retired)...)
}

func sortedByName(results []Result) []Result {
	sort.SliceStable(results, func(i, j int) bool { return results[i].Name < results[j].Name })
	return results
}

// reasonToApply says why an addon must be applied over its record, or "" when it need not be. A
// record without our inventory is applied over once, whatever its version, so that its objects
// can be retired or pruned later.
func reasonToApply(recorded *api.ChannelVersion, id, hash, fieldManager string) string {
	switch {
	case recorded == nil:
		return "new: the cluster does not run it yet"
	case !recorded.Ours(fieldManager):
		return "taking over: another tool recorded it, without an inventory of " + fieldManager + "'s"
	case recorded.ID != id:
		return fmt.Sprintf("its id changed from %q to %q", recorded.ID, id)
	case recorded.ManifestHash != hash:
		return "its manifest changed"
	case recorded.SystemGeneration < SystemGeneration:
		return "an older channels applied it"
	}
	return ""
}
