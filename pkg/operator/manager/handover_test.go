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

package manager

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	channelsapi "k8s.io/kops/channels/pkg/api"
)

func labelled(addon, handoverTo string) *unstructured.Unstructured {
	u := &unstructured.Unstructured{Object: map[string]any{}}
	if addon != "" {
		u.SetLabels(map[string]string{channelsapi.LabelAddonName: addon})
	}
	if handoverTo != "" {
		u.SetAnnotations(map[string]string{channelsapi.AnnotationHandoverTo: handoverTo})
	}
	return u
}

// TestHeldForHandover: the operator leaves alone only an object channels gave back to another
// addon that hands it to the custom resource's addon since the operator last wrote it; everything
// else is its to write.
func TestHeldForHandover(t *testing.T) {
	const ours, builtIn, rbac = "coredns.addons.x-k8s.io", "coredns.addons.k8s.io", "coredns-rbac.addons.k8s.io"
	for _, tc := range []struct {
		name          string
		cached, owner *unstructured.Unstructured
		last          string
		wrote         bool
		want          string
	}{
		{"absent: created by the operator", nil, labelled(ours, ""), "", false, ""},
		{"handed over already", labelled(ours, ours), labelled(ours, ""), ours, true, ""},
		{"taken back by the built-in addon", labelled(builtIn, ours), labelled(ours, ""), ours, true, builtIn},
		{"taken back, written before the handover", labelled(builtIn, ours), labelled(ours, ""), builtIn, true, ""},
		{"the built-in addon's, never written by this process: adopted", labelled(builtIn, ours), labelled(ours, ""), "", false, ""},
		{"another addon's that hands it to nobody (the pre-created RBAC)", labelled(rbac, ""), labelled(ours, ""), ours, true, ""},
		{"another addon's handed to a third", labelled(builtIn, "other.addons.x-k8s.io"), labelled(ours, ""), ours, true, ""},
		{"no addon label: not channels'", labelled("", ours), labelled(ours, ""), ours, true, ""},
		{"a custom resource without an addon (made by hand)", labelled(builtIn, ours), labelled("", ""), "", true, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, heldForHandover(tc.cached, tc.owner, tc.last, tc.wrote))
		})
	}
}
