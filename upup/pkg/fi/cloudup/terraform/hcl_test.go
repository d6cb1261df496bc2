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

package terraform

import (
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/zclconf/go-cty/cty"
)

// taggedBody is a resource with a string attribute and a users' tag map, the two places where
// arbitrary text reaches kubernetes.tf.
type taggedBody struct {
	Name string            `cty:"name"`
	Tags map[string]string `cty:"tags"`
}

// readBack renders body as aws_thing.a, parses kubernetes.tf with HCL's parser and returns the
// resource's attributes evaluated (no references in them).
func readBack(t *testing.T, body taggedBody) map[string]cty.Value {
	t.Helper()
	target := NewTarget(Options{})
	require.NoError(t, target.RenderResource("aws_thing", "a", body))
	files, err := target.Files()
	require.NoError(t, err)
	out := files[MainFile]
	f, diags := hclsyntax.ParseConfig(out, MainFile, hcl.InitialPos)
	require.False(t, diags.HasErrors(), "%s\n%s", diags, out)
	var got map[string]cty.Value
	for _, b := range f.Body.(*hclsyntax.Body).Blocks {
		if b.Type != "resource" {
			continue
		}
		require.Equal(t, []string{"aws_thing", "a"}, b.Labels)
		got = map[string]cty.Value{}
		for name, attr := range b.Body.Attributes {
			v, diags := attr.Expr.Value(nil)
			require.False(t, diags.HasErrors(), "%s\n%s", diags, out)
			got[name] = v
		}
	}
	require.NotNil(t, got, "no resource block in\n%s", out)
	return got
}

// stringsOf is an object or map value as a Go map.
func stringsOf(t *testing.T, v cty.Value) map[string]string {
	t.Helper()
	out := map[string]string{}
	for k, e := range v.AsValueMap() {
		require.Equal(t, cty.String, e.Type())
		out[k] = e.AsString()
	}
	return out
}

// read is s as HCL reads back what the target wrote: NFC-normalised (go-cty normalises every
// string), invalid UTF-8 as U+FFFD.
func read(s string) string { return cty.StringVal(string([]rune(s))).AsString() }

// TestMapKeysParse: a map of the users' tags reads back with HCL's parser whatever its keys: a
// first key "for" (HCL reads a bare one as the start of a for-expression, so the target quotes
// it), keywords, AWS's and kubernetes's keys with dots, slashes and colons, and keys that are no
// names at all.
func TestMapKeysParse(t *testing.T) {
	for _, keys := range [][]string{
		{"for"},
		{"for", "zz"},
		{"a", "for"},
		{"if", "in"},
		{"false", "null", "true"},
		{"kubernetes.io/cluster/a.example.com", "KubernetesCluster", "k8s.io/role/node"},
		{"aws:cloudformation:stack-name", "Name"},
		{"", "a b", "1x", "größe", "e\u0301", "${x}", "%{y}", "q\"uote", "back\\slash", "new\nline"},
	} {
		t.Run(keys[0], func(t *testing.T) {
			tags := map[string]string{}
			want := map[string]string{}
			for _, k := range keys {
				tags[k] = "v-" + k
				want[read(k)] = read("v-" + k)
			}
			got := readBack(t, taggedBody{Name: "n", Tags: tags})
			assert.Equal(t, want, stringsOf(t, got["tags"]))
		})
	}
}

// FuzzStringsRoundTrip: any string value and any tag key and value are written so that HCL's
// parser reads the file and finds them again (as read describes).
func FuzzStringsRoundTrip(f *testing.F) {
	for _, s := range []string{"", "a", "größe", "${x}", "%{", "$${", "%%{", "\"\\\n\t", "\x00\x7f\u2028", "e\u0301", "\xff", "🇩🇪x", "1a", "a-b_c", "for", "in", "null", "kubernetes.io/cluster/x", "a:b"} {
		f.Add(s, "v")
	}
	f.Fuzz(func(t *testing.T, key, value string) {
		if value == "" {
			value = "x" // an empty string attribute is left out
		}
		got := readBack(t, taggedBody{Name: value, Tags: map[string]string{key: value, "zz": "other"}})
		assert.Equal(t, read(value), got["name"].AsString())
		want := map[string]string{read(key): read(value), "zz": "other"}
		if key == "zz" {
			want = map[string]string{"zz": "other"}
		}
		assert.Equal(t, want, stringsOf(t, got["tags"]))
	})
}

// TestWritingLeavesExpressionsAlone: laying a file out sets its tokens' spaces, so an expression
// written twice (a local and its output) or by two calls of Files is written from a copy: the
// bytes are the same every time, and a data source declared again after Files still matches.
func TestWritingLeavesExpressionsAlone(t *testing.T) {
	target := NewTarget(Options{ClusterName: "a.example.com"})
	listed := LiteralDataProperty("aws_security_group", "sg", "id")
	before := cloneTokens(listed.tokens)
	require.NoError(t, target.RenderResource("aws_thing", "a", &testUsesGroups{Name: "a", SecurityGroups: []*Literal{LiteralString("sg-0"), listed}}))
	lookup := &taggedBody{Name: "sg", Tags: map[string]string{"KubernetesCluster": "a.example.com", "kubernetes.io/cluster/a.example.com": "owned"}}
	require.NoError(t, target.RenderDataSource("aws_security_group", "sg", lookup))
	require.NoError(t, target.AddOutputListItem("node_security_group_ids", LiteralDataProperty("aws_security_group", "sg", "id")))
	require.NoError(t, target.AddOutputListItem("node_security_group_ids", LiteralString("sg-1")))
	first, err := target.Files()
	require.NoError(t, err)
	second, err := target.Files()
	require.NoError(t, err)
	assert.Equal(t, string(first[MainFile]), string(second[MainFile]))
	assert.Contains(t, string(first[MainFile]), "  node_security_group_ids = [\"sg-1\", data.aws_security_group.sg.id]\n")
	assert.Contains(t, string(first[MainFile]), "  value = [\"sg-1\", data.aws_security_group.sg.id]\n")
	assert.NoError(t, target.RenderDataSource("aws_security_group", "sg", lookup), "the same lookup after Files")
	assert.Equal(t, before, listed.tokens, "a Literal in a list is copied, not laid out in place")
}
