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
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestReport: a header names the columns, each addon says what happened and why in plain words,
// and a dry run that would change something ends with the reminder.
func TestReport(t *testing.T) {
	cases := []struct {
		name    string
		results []Result
		want    string
	}{
		{"dry run", []Result{
			{Name: "coredns.addons.k8s.io", ID: "k8s-1.12", Outcome: WouldApply, Reason: reasonToApply(nil, "k8s-1.12", "abc", "kops-channels")},
			{Name: "old.addons.k8s.io", Outcome: WouldPrune, Reason: "the channel no longer lists it"},
		}, "ADDON                             OUTCOME       REASON\n" +
			"coredns.addons.k8s.io (k8s-1.12)  would apply   new: the cluster does not run it yet\n" +
			"old.addons.k8s.io                 would retire  the channel no longer lists it\n" +
			"\nMust specify --yes to apply changes\n"},
		{"nothing to do", []Result{{Name: "coredns.addons.k8s.io", ID: "k8s-1.12", Outcome: Unchanged}},
			"ADDON                             OUTCOME    REASON\n" +
				"coredns.addons.k8s.io (k8s-1.12)  unchanged  -\n"},
		{"applied", []Result{{Name: "a", Outcome: Applied, Reason: "its manifest changed"}, {Name: "b", Outcome: Failed, Reason: "forbidden"}},
			"ADDON  OUTCOME  REASON\n" +
				"a      applied  its manifest changed\n" +
				"b      failed   forbidden\n"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			require.NoError(t, writeReport(&out, tc.results))
			assert.Equal(t, tc.want, out.String())
		})
	}
}
