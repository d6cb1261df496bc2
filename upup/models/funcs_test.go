package models

import (
	"io/fs"
	"strings"
	"testing"

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
	_, err := Render("cloudup/resources/addons/nope.yaml.template", nil)
	assert.ErrorContains(t, err, "nope.yaml.template")
}

func TestTemplatesAreEmbedded(t *testing.T) {
	b, err := fs.ReadFile(FS(), "cloudup/resources/addons/coredns.addons.k8s.io/k8s-1.12.yaml.template")
	require.NoError(t, err)
	assert.Contains(t, string(b), "kind: Deployment")
}
