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
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"errors"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/util/validation"
	"sigs.k8s.io/yaml"

	"k8s.io/kops/util/pkg/allocbound"
)

const fuzzHash = "2d711642b726b04401627ca9fbac32f5c8530fb1903cc4db02258717921a4881"

// FuzzParseAddonsFile: a bootstrap channel comes from a state store or a path given to `channels
// apply`. Parsing must not panic and must work in proportion to the input; a refusal lists its
// problems with lines inside the file; what is accepted names manifests inside the channel's folder
// and records under valid annotation keys, and encodes to a channel that parses back to itself.
func FuzzParseAddonsFile(f *testing.F) {
	for _, s := range []string{
		"kind: Addons\nmetadata: {name: b}\nspec:\n  addons:\n  - name: a\n    manifest: a/k.yaml\n    manifestHash: " + fuzzHash + "\n",
		"kind: Addons\nmetadata: {name: b, creationTimestamp: null}\nspec:\n  addons:\n  - {name: a, id: k-1, manifest: a.yaml, manifestHash: " + fuzzHash + ", namespace: ns, selector: {k: v}}\n  takeOver:\n  - {name: c, manifest: c.yaml, manifestHash: " + fuzzHash + "}\n",
		"kind: Addons\nmetadata: {name: b}\nspec:\n  addons:\n  - name: a\n    manifest: a.yaml\n    manifestHash: " + fuzzHash + "\n    kubernetesVersion: '>=1.30.0'\n    needsRollingUpdate: all\n    prune: {kinds: [{group: apps, kind: Deployment, namespaces: [kube-system], labelSelector: 'a=b'}]}\n",
		"kind: Addons\nspec:\n  addons:\n  - name: ../a\n    manifest: ../a.yaml\n    manifestHash: x\n    bogus: 1\n",
		"kind: Addons\nspec: &s {addons: *s}\n",
		"kind: Addons\n---\nkind: Addons\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var a *Addons
		var err error
		allocbound.Check(t, len(data), func() { a, err = ParseAddonsFile("channel.yaml", data) })
		if err != nil {
			var fe *FileError
			require.True(t, errors.As(err, &fe), "%T: %v", err, err)
			require.NotEmpty(t, fe.Problems)
			lines := yamlLines(data)
			for _, p := range fe.Problems {
				assert.NotEmpty(t, p.Err.Error())
				assert.LessOrEqual(t, p.Line, lines, "a problem's line is inside the file: %v", p.Err)
			}
			return
		}
		for _, list := range [][]AddonSpec{a.Spec.Addons, a.Spec.TakeOver} {
			for _, addon := range list {
				assert.True(t, filepath.IsLocal(addon.Manifest) && path.Clean(addon.Manifest) == addon.Manifest,
					"manifest %q of addon %q is not a clean path inside the channel's folder", addon.Manifest, addon.Name)
				assert.Empty(t, validation.IsQualifiedName(RecordKeyPrefix+addon.Name), "addon name %q", addon.Name)
				if addon.Namespace != "" {
					assert.Empty(t, validation.IsDNS1123Label(addon.Namespace), "namespace %q", addon.Namespace)
				}
			}
		}
		first, err := a.Encode()
		require.NoError(t, err)
		back, err := ParseAddonsFile("again.yaml", first)
		require.NoError(t, err, "re-parsing our own output:\n%s", first)
		second, err := back.Encode()
		require.NoError(t, err)
		assert.Equal(t, string(first), string(second))
	})
}

// FuzzParseChannel: a package channel is what spec.channel names, a URL or a path anyone may give.
// Parsing must not panic and must work in proportion to the input; what is accepted names each
// package version's manifest at packages/<name>/<version>/manifest.yaml, which must stay four clean
// path segments inside the channel's folder; and it marshals to a channel that parses back to
// itself.
func FuzzParseChannel(f *testing.F) {
	for _, s := range []string{
		"apiVersion: kops.k8s.io/v1alpha2\nkind: Channel\nmetadata: {name: c}\nspec:\n  packages:\n  - {name: coredns, version: 1.12.4, image: 'registry.k8s.io/coredns/coredns:v1.12.4'}\n",
		"apiVersion: kops.k8s.io/v1alpha2\nkind: Channel\nspec:\n  packages:\n  - {name: a.b-c, version: 0.3.0-alpha.1+b.2, kubernetesVersion: '>=1.30.0 <1.37.0', image: 'r/x@sha256:" + digest + "'}\n",
		"apiVersion: kops.k8s.io/v1alpha2\nkind: Channel\nspec:\n  packages:\n  - {name: ../x, version: 1.0.0/.., image: 'x:latest', extra: 1}\n  - {name: ../x, version: 1.0.0/..}\n",
		"{\"kind\": \"Channel\", \"spec\": {\"packages\": [{\"name\": \"a\", \"name\": \"b\"}]}}",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var c *Channel
		var err error
		allocbound.Check(t, len(data), func() { c, err = ParseChannel(data) })
		if err != nil {
			assert.NotEmpty(t, err.Error())
			return
		}
		for _, p := range c.Spec.Packages {
			file := path.Join("packages", p.Name, p.Version, "manifest.yaml")
			assert.True(t, filepath.IsLocal(file), "package %q version %q leaves the channel's folder: %s", p.Name, p.Version, file)
			assert.Equal(t, []string{"packages", p.Name, p.Version, "manifest.yaml"}, strings.Split(file, "/"),
				"package %q version %q are not one path segment each", p.Name, p.Version)
		}
		first, err := yaml.Marshal(c)
		require.NoError(t, err)
		back, err := ParseChannel(first)
		require.NoError(t, err, "re-parsing our own output:\n%s", first)
		second, err := yaml.Marshal(back)
		require.NoError(t, err)
		assert.Equal(t, string(first), string(second))
	})
}

// FuzzParseEnforcementProbe: the probe is an annotation of a manifest in the channel. Parsing must
// not panic; what is accepted has a user and a namespaced, named object, and encodes to a value
// that parses back to the same probe.
func FuzzParseEnforcementProbe(f *testing.F) {
	for _, s := range []string{
		`{"user":"system:serviceaccount:ns:op","object":{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"p","namespace":"kube-system"}}}`,
		`{"user":"u","object":{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":1}},"extra":true}`,
		`{"user":"u"} {"user":"v"}`,
		`[`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, value string) {
		var p *EnforcementProbe
		var err error
		allocbound.Check(t, len(value), func() { p, err = ParseEnforcementProbe(value) })
		if err != nil {
			assert.Contains(t, err.Error(), EnforcementProbeAnnotation)
			return
		}
		assert.NotEmpty(t, p.User)
		meta, _ := p.Object["metadata"].(map[string]interface{})
		for _, s := range []interface{}{p.Object["apiVersion"], p.Object["kind"], meta["name"], meta["namespace"]} {
			assert.IsType(t, "", s)
			assert.NotEmpty(t, s)
		}
		encoded, err := p.Encode()
		require.NoError(t, err)
		back, err := ParseEnforcementProbe(encoded)
		require.NoError(t, err, "re-parsing our own output: %s", encoded)
		again, err := back.Encode()
		require.NoError(t, err)
		assert.Equal(t, encoded, again)
	})
}

// yamlLines is how many lines YAML sees in data at most: it breaks lines at CR, LF, CR LF, and the
// Unicode next-line, line and paragraph separators.
func yamlLines(data []byte) int {
	n := 1
	for _, sep := range []string{"\n", "\r", "\u0085", "\u2028", "\u2029"} {
		n += strings.Count(string(data), sep)
	}
	return n
}

// FuzzParseChannelVersion: a record is an annotation on a namespace, which kops's channels, an
// older channels or a person may have written. Reading it and its inventory must not panic and
// must work in proportion to the input (a gzipped inventory is bounded by what it may unpack to);
// a record that is read encodes to a value read back the same, and its objects come in a stable
// order.
func FuzzParseChannelVersion(f *testing.F) {
	plain := &ChannelVersion{ID: "k8s-1.12", ManifestHash: "abc", SystemGeneration: 1, FieldManager: "kops-channels"}
	require.NoError(f, plain.SetInventory(refs(3)))
	// SetInventory gzips only inventories of more than 4 KiB: a small one is made here, so that the
	// seed stays small (the fuzzer minimizes what it finds, at a cost of the input's length squared).
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	_, err := zw.Write([]byte(`{"ConfigMap":{"a":["x","y"]},"Deployment.apps":{"b":["z"]}}`))
	require.NoError(f, err)
	require.NoError(f, zw.Close())
	gzipped := &ChannelVersion{FieldManager: "kops-channels", InventoryGzip: base64.StdEncoding.EncodeToString(gz.Bytes())}
	for _, s := range []string{
		plain.Encode(),
		gzipped.Encode(),
		`{"version":"1.4.0","channel":"s3://b/c/addons/bootstrap-channel.yaml","id":"k8s-1.12","manifestHash":"x","systemGeneration":1}`,
		`{"inventory":{"Kind":{"":["a","a"]}},"inventoryGzip":"H4sI"}`,
		`{"inventory":null}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, value string) {
		var v *ChannelVersion
		var err error
		allocbound.Check(t, len(value), func() { v, err = ParseChannelVersion(value) })
		if err != nil {
			return
		}
		var objs []ObjectRef
		read := func() { objs, err = v.Objects() }
		if v.InventoryGzip == "" {
			allocbound.Check(t, len(value), read)
		} else {
			read()
		}
		if err == nil {
			assert.True(t, sort.SliceIsSorted(objs, func(i, j int) bool { return objs[i].Key() < objs[j].Key() }), "objects out of order: %v", objs)
		}
		encoded := v.Encode()
		back, err := ParseChannelVersion(encoded)
		require.NoError(t, err, "re-reading our own output: %s", encoded)
		assert.Equal(t, encoded, back.Encode())
	})
}
