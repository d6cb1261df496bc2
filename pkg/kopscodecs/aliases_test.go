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

package kopscodecs

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"k8s.io/kops/util/pkg/allocbound"
)

// nestedAliases is a cluster whose affinity repeats one preferred term k times, each holding one
// match expression k times, each with k values: about k³ values written in about 20·k bytes.
func nestedAliases(k int) string {
	values := strings.TrimSuffix(strings.Repeat("a,", k), ",")
	var b strings.Builder
	b.WriteString("apiVersion: kops.k8s.io/v1alpha2\nkind: Cluster\nmetadata: {name: x}\nspec:\n  kubeDNS:\n    affinity:\n      nodeAffinity:\n        preferredDuringSchedulingIgnoredDuringExecution:\n")
	fmt.Fprintf(&b, "        - &p {weight: 1, preference: {matchExpressions: [&m {key: a, operator: In, values: [%s]}%s]}}\n", values, strings.Repeat(", *m", k-1))
	b.WriteString(strings.Repeat("        - *p\n", k-1))
	return b.String()
}

func TestDecodeBoundsAliases(t *testing.T) {
	cases := []struct {
		name    string
		doc     string
		wantErr string
	}{
		{
			name: "shared toleration list",
			doc:  "apiVersion: kops.k8s.io/v1alpha2\nkind: Cluster\nmetadata: {name: x}\nspec:\n  kubeDNS: {tolerations: &t [{key: a, operator: Exists}]}\n  hooks: *t\n",
		},
		{name: "a few nested repeats", doc: nestedAliases(4)},
		{
			// 2 KB that took 29 s and 2.5 GB before aliases were bounded.
			name:    "nested repeats",
			doc:     nestedAliases(100),
			wantErr: "x.yaml:1: document 1: YAML aliases expand the document by more than 1000 values; write the values out",
		},
		{
			name:    "alias inside its own value",
			doc:     "apiVersion: kops.k8s.io/v1alpha2\nkind: Cluster\nmetadata: {name: x}\nspec:\n  kubeDNS: {stubDomains: &s {a: *s}}\n",
			wantErr: "x.yaml:1: document 1: line 5: YAML alias *s is inside the value it refers to",
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var err error
			allocbound.Check(t, len(tc.doc), func() { _, _, err = Decode("x.yaml", []byte(tc.doc), false) })
			if tc.wantErr == "" {
				require.NoError(t, err)
				return
			}
			assert.EqualError(t, err, tc.wantErr)
		})
	}
}

func TestDecodeDeeplyNestedAddon(t *testing.T) {
	// 18 KB that took 20 s and 2.3 GB when every path's line was noted.
	const depth = 9000
	doc := "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\ndata: {a: " + strings.Repeat("[", depth) + strings.Repeat("]", depth) + "}\n"
	var objs []*Object
	var err error
	allocbound.Check(t, len(doc), func() { objs, _, err = Decode("x.yaml", []byte(doc), true) })
	require.NoError(t, err)
	require.Len(t, objs, 1)
	assert.Equal(t, 3, objs[0].lines["metadata.name"])
}
