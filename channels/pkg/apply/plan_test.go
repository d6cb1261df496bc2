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
	"testing"

	"github.com/stretchr/testify/assert"

	"k8s.io/kops/channels/pkg/api"
)

func recordOf(channel string, ours bool) record {
	v := &api.ChannelVersion{Channel: &channel, ID: "v1"}
	if ours {
		v.FieldManager, v.Inventory = "kops-channels", &api.Inventory{}
	}
	return record{namespace: "kube-system", version: v}
}

func addonNamed(name string) *Addon {
	a := &Addon{}
	a.Spec.Name, a.Spec.ID = name, "v1"
	return a
}

// The dry run reports each planned action as what it would do, takeovers first, and retirement
// from the records: a pending takeover is reported once, as the takeover.
func TestDryRunShowsThePlan(t *testing.T) {
	const here, elsewhere = "memfs://c/addons/bootstrap-channel.yaml", "memfs://other/bootstrap-channel.yaml"
	ch := &Channel{Location: here, Addons: []*Addon{addonNamed("kept"), addonNamed("new")}}
	p := &plan{channel: ch, records: map[string]record{
		"kept":      recordOf(here, true),
		"gone":      recordOf(here, true),
		"kops-made": recordOf(here, false),
		"theirs":    recordOf(elsewhere, true),
		"taken":     recordOf(here, false),
	}}
	p.takeOvers = []*addonPlan{{addon: addonNamed("taken"), action: actionTakeOver, result: Result{Name: "taken", ID: "v1", Reason: "taking over"}}}
	p.addons = []*addonPlan{
		{addon: ch.Addons[0], result: Result{Name: "kept", ID: "v1", Outcome: Unchanged}},
		{addon: ch.Addons[1], action: actionApply, result: Result{Name: "new", ID: "v1", Reason: "new"}},
	}
	a := &Applier{opts: Options{FieldManager: "kops-channels"}}
	got := a.dryRun(p)
	var rows [][2]string
	for _, r := range got {
		rows = append(rows, [2]string{r.Name, string(r.Outcome)})
	}
	assert.Equal(t, [][2]string{
		{"taken", string(WouldApply)}, {"kept", string(Unchanged)}, {"new", string(WouldApply)},
		{"gone", string(WouldPrune)}, {"kops-made", string(LeftAlone)},
	}, rows)

	p.unreachable = assert.AnError
	assert.Len(t, a.dryRun(p), 3, "nothing is retired when the server did not answer")
}
