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

package templates

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/yaml"
)

// decodeValue decodes "key: <value>" nested under a parent key, the way the template uses values.
func decodeValue(t *testing.T, value string) string {
	t.Helper()
	var doc map[string]map[string]string
	require.NoError(t, yaml.UnmarshalStrict([]byte("data:\n  key: "+value+"\nnext: {}\n"), &doc), value)
	return doc["data"]["key"]
}

func TestScalarHelpersRoundTrip(t *testing.T) {
	inputs := []string{
		"", "yes", "no", "on", "~", "null", "0x1f", "1e3", "010", "a: b", "#not a comment", "- item",
		`"quoted" and 'single'`, "<html>&", "{flow}", "[seq]", "@at", "`tick", "% pct", "trailing ",
		"line1\nline2", "line1\nline2\n", "ends\n\n\n", "\nleading newline\n", " leading space\nx\n",
		"tab\there\n", "trailing spaces  \nnext\n", "crlf\r\nline\r\n", "bell\a\n", "  \n", "---\nnot a doc\n",
		"unicode ✓ naïve\n",
	}
	for _, in := range inputs {
		t.Run(in, func(t *testing.T) {
			q, err := quote(in)
			require.NoError(t, err)
			assert.NotContains(t, q, "\n")
			assert.Equal(t, in, decodeValue(t, q), "quote")

			l, err := literal(4, in)
			require.NoError(t, err)
			assert.Equal(t, in, decodeValue(t, l), "literal: %q", l)
		})
	}
}

func TestLiteralUsesBlockStyleForMultiLineText(t *testing.T) {
	got, err := literal(4, ".:53 {\n    errors\n}\n")
	require.NoError(t, err)
	assert.Equal(t, "|\n    .:53 {\n        errors\n    }", got)

	got, err = literal(4, "a\nb")
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(got, "|-\n"), got)
}

func TestIndent(t *testing.T) {
	assert.Equal(t, "  a\n\n    b", indent(2, "a\n\n  b"))
}

func TestToYAMLSortsKeys(t *testing.T) {
	got, err := toYAML(map[string]string{"b": "yes", "a": "1"})
	require.NoError(t, err)
	assert.Equal(t, "a: \"1\"\nb: \"yes\"", got)
}

func TestRenderUnknownTemplate(t *testing.T) {
	_, err := Render(fstest.MapFS{}, "cloudup/resources/addons/nope.yaml.template", nil)
	assert.ErrorContains(t, err, "nope.yaml.template")
}

func TestRenderWithPartials(t *testing.T) {
	fsys := fstest.MapFS{
		"a.yaml.template":          {Data: []byte(`{{ template "p" . }}: {{ quote .V }}`)},
		"partials/p.yaml.template": {Data: []byte(`{{ define "p" }}key{{ end }}`)},
	}
	out, err := Render(fsys, "a.yaml.template", map[string]string{"V": "yes"}, "partials/*.yaml.template")
	require.NoError(t, err)
	assert.Equal(t, "key: \"yes\"\n", string(out), "quoted, with the newline added")

	_, err = Render(fsys, "a.yaml.template", map[string]string{}, "partials/*.yaml.template")
	assert.ErrorContains(t, err, "V", "a missing key is an error, not <no value>")
}
