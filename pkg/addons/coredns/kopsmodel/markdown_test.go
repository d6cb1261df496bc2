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

package kopsmodel

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestRightsMarkdown(t *testing.T) {
	md := Descriptor().RightsMarkdown()
	lines := strings.Split(strings.TrimSuffix(md, "\n"), "\n")
	assert.Len(t, lines, len(Rights())+2, "header, separator and one row per right")
	assert.Equal(t, "| Namespace | API group | Resources | Verbs | Names | Why |", lines[0])

	for _, tc := range []struct {
		name, row string
	}{
		{"named core read", "| `kube-system` | core | `services` | `get`, `list`, `watch` | `kube-dns` | "},
		{"unnamed create", "| `kube-system` | core | `services`, `configmaps`, `serviceaccounts` | `create` | (any) | "},
		{"named apps write", "| `kube-system` | apps | `deployments` | `update`, `patch` | `coredns` | "},
		{"named service write", "| `kube-system` | core | `services` | `update`, `patch` | `kube-dns` | "},
		{"status", "| `kube-system` | addons.x-k8s.io | `corednses/status` | `get`, `update`, `patch` | `coredns` | "},
		{"lease", "| `coredns-operator-system` | coordination.k8s.io | `leases` | `get`, `update` | `coredns-operator-leader` | "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Contains(t, md, "\n"+tc.row)
		})
	}
	for i, r := range Rights() {
		assert.True(t, strings.HasSuffix(lines[i+2], " | "+r.Why+" |"), "row %d does not belong to right %+v: %s", i, r, lines[i+2])
		assert.Contains(t, lines[i+2], "`"+strings.Join(r.Verbs, "`, `")+"`", "row %d", i)
	}
}
