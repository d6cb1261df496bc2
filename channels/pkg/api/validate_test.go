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

package api

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var hashX = ManifestHash([]byte("x"))

// addon renders one entry of spec.addons from "key: value" lines.
func addon(fields ...string) string {
	return "  - " + strings.Join(fields, "\n    ") + "\n"
}

func channelOf(addons ...string) string {
	return "kind: Addons\nmetadata:\n  name: bootstrap\nspec:\n  addons:\n" + strings.Join(addons, "")
}

func TestParseAddonsFileValidates(t *testing.T) {
	ok := func(name string) string {
		return addon("name: "+name, "manifest: "+name+"/v1.yaml", "manifestHash: "+hashX)
	}
	cases := map[string]struct {
		data string
		want []string
	}{
		"valid, kops's format": {data: channelOf(ok("coredns.addons.k8s.io"), ok("CoreDNS"))},
		"apiVersion of kops":   {data: "apiVersion: kops.k8s.io/v1alpha1\n" + channelOf(ok("a"))},
		"no name": {
			data: channelOf(ok("a"), addon("manifest: a/v1.yaml", "manifestHash: "+hashX)),
			want: []string{"src:9: spec.addons[1].name: Required value"},
		},
		"duplicate names, in different namespaces too": {
			data: channelOf(ok("a"), ok("b"), ok("a")+"    namespace: other\n"),
			want: []string{"src:12: spec.addons[2].name: Duplicate value: \"a (also spec.addons[0])\""},
		},
		"name not fit for an annotation key": {
			data: channelOf(ok("a/b"), ok("-a"), ok(strings.Repeat("a", 64)), ok("a b")),
			want: []string{"spec.addons[0].name: Invalid value", "spec.addons[1].name: Invalid value",
				"spec.addons[2].name: Invalid value", "spec.addons[3].name: Invalid value"},
		},
		"missing and malformed fields, all reported": {
			data: channelOf(addon("name: a"), addon("name: b", "manifest: ../x.yaml", "manifestHash: abc", "id: 'a b'"),
				addon("name: c", "manifest: /etc/passwd", "manifestHash: "+hashX, "namespace: Kube_System", "selector: {'k 1': v}"),
				addon("name: d", "manifest: ./d.yaml", "manifestHash: "+hashX, "prune: {kinds: [{namespaces: [X]}, {kind: ConfigMap, labelSelector: 'a in ('}]}")),
			want: []string{
				"spec.addons[0].manifest: Required value", "spec.addons[0].manifestHash: Required value",
				"spec.addons[1].manifest: Invalid value", "spec.addons[1].manifestHash: Invalid value", "spec.addons[1].id: Invalid value",
				"spec.addons[2].manifest: Invalid value", "spec.addons[2].namespace: Invalid value", "spec.addons[2].selector: Invalid value",
				"spec.addons[3].manifest: Invalid value", "spec.addons[3].prune.kinds[0].kind: Required value",
				"spec.addons[3].prune.kinds[0].namespaces[0]: Invalid value", "spec.addons[3].prune.kinds[1].labelSelector: Invalid value",
			},
		},
		"wrong kind and apiVersion": {
			data: "apiVersion: v1\nkind: Channel\nspec: {addons: []}\n",
			want: []string{"src:2: kind: Invalid value", "src:1: apiVersion: Invalid value"},
		},
		"unknown field, with its line": {
			data: channelOf(ok("a") + "    manifestHsh: y\n"),
			want: []string{`src:9: spec.addons[0]: unknown field "manifestHsh"`},
		},
		"wrong types, with their lines": {
			data: channelOf(addon("name: 12", "manifest: [a]", "manifestHash: "+hashX)),
			want: []string{`src:6: spec.addons[0].name: must be a string, not int "12"`, "src:7: spec.addons[0].manifest: must be a string, not a list"},
		},
		"spec is not an object": {data: "kind: Addons\nspec: [1]\n", want: []string{"src:2: spec: must be an object, not a list"}},
		"syntax error":          {data: "kind: Addons\nspec:\n  addons: [\n", want: []string{"src: yaml: line"}},
		"empty file":            {data: "", want: []string{"src: the file holds no YAML document"}},
		"field given twice":     {data: channelOf(ok("a") + "    name: b\n"), want: []string{`src:9: spec.addons[0]: field "name" is given twice`}},
		// The fields kops's `kops update cluster` writes into a bootstrap channel.
		"written by kops": {data: "kind: Addons\nmetadata:\n  creationTimestamp: null\n  name: bootstrap\nspec:\n  addons:\n" +
			ok("kops-controller.addons.k8s.io") + "    version: 9.99.0\n    needsRollingUpdate: control-plane\n" +
			ok("networking.cilium.io") + "    needsPKI: false\n    kubernetesVersion: '>=1.16.0'\n    id: k8s-1.16\n"},
		"kops's fields, malformed": {
			data: channelOf(ok("a")+"    needsRollingUpdate: masters\n    kubernetesVersion: 'bigger than 1'\n", ok("b")),
			want: []string{`src:9: spec.addons[0].needsRollingUpdate: Unsupported value: "masters"`,
				`src:10: spec.addons[0].kubernetesVersion: Invalid value`},
		},
		"a takeOver addon named like an addon of the channel": {
			data: channelOf(ok("a")) + "  takeOver:\n" + ok("a") + ok("b"),
			want: []string{`spec.takeOver[0].name: Duplicate value: "a (also spec.addons[0])"`},
		},
		"a takeOver addon is validated like the others": {
			data: channelOf(ok("a")) + "  takeOver:\n" + addon("name: b", "manifest: ../b.yaml", "manifestHash: "+hashX),
			want: []string{`spec.takeOver[0].manifest: Invalid value`},
		},
		"kops's needsPKI, not a bool": {
			data: channelOf(ok("b") + "    needsPKI: 'yes'\n"),
			want: []string{`src:9: spec.addons[0].needsPKI: must be true or false`},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := ParseAddonsFile("src", []byte(tc.data))
			if len(tc.want) == 0 {
				require.NoError(t, err)
				return
			}
			require.Error(t, err)
			var fe *FileError
			require.ErrorAs(t, err, &fe)
			for _, w := range tc.want {
				assert.Contains(t, err.Error(), w)
			}
			assert.Len(t, fe.Problems, len(tc.want), err.Error())
		})
	}
}
