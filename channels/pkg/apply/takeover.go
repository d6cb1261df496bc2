package apply

import (
	"context"
)

// TakenOver is the outcome of an addon of the channel's takeOver list whose record another tool
// wrote: its manifest was applied over its objects and recorded as ours, and it is retired in the
// same run like any addon of ours that left the channel.
const TakenOver Outcome = "taken over"

// takeOver runs before the channel's addons are applied. Each addon of ch.TakeOver whose record
// another tool (kops's channels) wrote from this channel's location is applied and recorded with
// its inventory, in place of that record: retirement, later in the run, then hands over or
// deletes exactly the objects of its inventory, as it does for the channel's own addons. The
// objects it deletes are those this apply just took ownership of, so the rule that only what our
// field manager applied is deleted still holds. A record that is ours, from elsewhere or absent is
// left to the usual rules. It returns the results and, for a dry run, the addons it would take
// over (which retirement then does not report again).
func (a *Applier) takeOver(ctx context.Context, ch *Channel, records map[string]record) ([]Result, map[string]bool) {
	var results []Result
	pending := map[string]bool{}
	provider := providers(ch.Addons)
	for _, addon := range ch.TakeOver {
		rec, ok := records[addon.Spec.Name]
		if !ok || rec.version.Ours(a.opts.FieldManager) || rec.version.Channel == nil || *rec.version.Channel != ch.Location {
			continue
		}
		r := Result{Name: addon.Spec.Name, ID: addon.Spec.ID,
			Reason: "recorded by another tool and replaced in this channel: its objects are taken over, then retired"}
		fail := func(err error) {
			r.Outcome, r.Reason, r.Err = Failed, "taking over: "+err.Error(), err
		}
		refs, err := a.inventoryFor(addon, nil)
		if err == nil {
			_, err = a.newRecord(ch, addon, refs)
		}
		if err == nil {
			err = a.checkDowngrades(ctx, addon)
		}
		switch {
		case err != nil:
			fail(err)
		case !a.opts.Yes:
			r.Outcome = WouldApply
			pending[addon.Spec.Name] = true
		default:
			if err := a.applyObjects(ctx, addon, provider); err != nil {
				fail(err)
				break
			}
			written, err := a.newRecord(ch, addon, refs)
			if err == nil {
				err = a.writeRecord(ctx, rec.namespace, addon.Spec.Name, written)
			}
			if err != nil {
				fail(err)
				break
			}
			records[addon.Spec.Name] = record{namespace: rec.namespace, version: written}
			r.Outcome = TakenOver
		}
		results = append(results, r)
	}
	return results, pending
}
