package terraform

import (
	"maps"
	"reflect"
	"slices"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/hashicorp/hcl/v2/hclwrite"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/zclconf/go-cty/cty"
)

// hclwrite is the reference for this package's writer: kubernetes.tf must stay byte for byte what
// it was when hclwrite wrote it (and what terraform fmt leaves alone). The tests build each file
// both ways and compare; hclwrite is linked by the tests only.

// TestWriterMatchesHCLWrite builds files with every kind of item the encoder writes, and with
// keys and strings that need escaping, quoting or measuring in grapheme clusters.
func TestWriterMatchesHCLWrite(t *testing.T) {
	hop := int64(1)
	yes := true
	full := testBody{
		Name: "nodes.a.example.com", Count: 2, Enabled: true, HopLimit: &hop,
		Profile:  &testProfile{Name: LiteralProperty("aws_iam_instance_profile", "nodes-a-example-com", "id")},
		Mappings: []testMapping{{DeviceName: "/dev/xvda", EBS: &testEBS{VolumeSize: 64, VolumeType: "gp3", Encrypted: &yes}}, {DeviceName: "/dev/sdb"}},
		Tags:     map[string]string{"kubernetes.io/cluster/a.example.com": "owned", "KubernetesCluster": "a.example.com", "x": "${y} %{z} \"q\" \\ \n\t\r\x01\u2028\U0001F600 $ % é"},
		Zones:    []string{"b", "a"},
		Groups:   []*Literal{LiteralProperty("aws_security_group", "a", "id"), LiteralProperty("aws_security_group", "b", "id")},
		Ref:      LiteralProperty("aws_iam_role", "nodes-a-example-com", "name"),
	}
	type odd struct {
		M map[string]string `cty:"m"`
		L []string          `cty:"l"`
		N float64           `cty:"n"`
		U uint8             `cty:"u"`
		I int32             `cty:"i"`
		F *Literal          `cty:"f"`
		S *Literal          `cty:"s"`
		D *Literal          `cty:"d"`
	}
	file := &Literal{tokens: spaced(callTokens("filebase64", modulePathTemplate("/data/x_y_z")))}
	cases := []struct {
		name   string
		ours   func(hclBody)
		theirs func(*hclwrite.Body)
	}{
		{"a resource with every kind of field", func(b hclBody) {
			var refs []*Literal
			items, err := encodeBody(reflect.ValueOf(full), "x", &refs)
			require.NoError(t, err)
			b.block("resource", []string{"aws_thing", "a"}, func(b hclBody) { writeItems(b, items) })
			b.newline()
			empty, err := encodeBody(reflect.ValueOf(odd{M: map[string]string{}, L: []string{}, N: 1.5, U: 255, I: -3, F: file,
				S: LiteralString("a\"b"), D: LiteralDataProperty("aws_vpc", "v", "id")}), "y", &refs)
			require.NoError(t, err)
			b.block("resource", []string{"aws_thing", "b"}, func(b hclBody) { writeItems(b, empty) })
		}, func(b *hclwrite.Body) {
			r := b.AppendNewBlock("resource", []string{"aws_thing", "a"}).Body()
			for _, m := range []string{"/dev/xvda", "/dev/sdb"} {
				bdm := r.AppendNewBlock("block_device_mappings", nil).Body()
				bdm.SetAttributeValue("device_name", cty.StringVal(m))
				if m == "/dev/xvda" {
					ebs := bdm.AppendNewBlock("ebs", nil).Body()
					ebs.SetAttributeValue("encrypted", cty.True)
					ebs.SetAttributeValue("volume_size", cty.NumberIntVal(64))
					ebs.SetAttributeValue("volume_type", cty.StringVal("gp3"))
				}
			}
			r.SetAttributeValue("count", cty.NumberIntVal(2))
			r.SetAttributeValue("enabled", cty.True)
			r.SetAttributeValue("hop_limit", cty.NumberIntVal(1))
			r.AppendNewBlock("iam_instance_profile", nil).Body().SetAttributeTraversal("name", traversal("aws_iam_instance_profile", "nodes-a-example-com", "id"))
			r.SetAttributeValue("name", cty.StringVal("nodes.a.example.com"))
			r.SetAttributeTraversal("role", traversal("aws_iam_role", "nodes-a-example-com", "name"))
			r.SetAttributeRaw("security_groups", hclwrite.TokensForTuple([]hclwrite.Tokens{
				hclwrite.TokensForTraversal(traversal("aws_security_group", "a", "id")),
				hclwrite.TokensForTraversal(traversal("aws_security_group", "b", "id")),
			}))
			r.SetAttributeRaw("tags", refMapTokens(full.Tags))
			r.SetAttributeValue("zones", cty.TupleVal([]cty.Value{cty.StringVal("b"), cty.StringVal("a")}))
			b.AppendNewline()
			o := b.AppendNewBlock("resource", []string{"aws_thing", "b"}).Body()
			o.SetAttributeTraversal("d", traversal("data", "aws_vpc", "v", "id"))
			o.SetAttributeRaw("f", hclwrite.TokensForFunctionCall("filebase64", hclwrite.Tokens{
				{Type: hclsyntax.TokenOQuote, Bytes: []byte(`"`)}, {Type: hclsyntax.TokenTemplateInterp, Bytes: []byte(`${`)},
				{Type: hclsyntax.TokenIdent, Bytes: []byte("path")}, {Type: hclsyntax.TokenDot, Bytes: []byte(".")},
				{Type: hclsyntax.TokenIdent, Bytes: []byte("module")}, {Type: hclsyntax.TokenTemplateSeqEnd, Bytes: []byte(`}`)},
				{Type: hclsyntax.TokenQuotedLit, Bytes: []byte("/data/x_y_z")}, {Type: hclsyntax.TokenCQuote, Bytes: []byte(`"`)},
			}))
			o.SetAttributeValue("i", cty.NumberIntVal(-3))
			o.SetAttributeValue("l", cty.ListValEmpty(cty.String))
			o.SetAttributeValue("m", cty.MapValEmpty(cty.String))
			o.SetAttributeValue("n", cty.NumberFloatVal(1.5))
			o.SetAttributeValue("s", cty.StringVal("a\"b"))
			o.SetAttributeValue("u", cty.NumberUIntVal(255))
		}},
		{"keys that are no names, and wide ones", func(b hclBody) {
			b.attribute("tags", mapTokens(reflect.ValueOf(map[string]string{"größe": "x", "a": "y", "e\u0301": "z", "🇩🇪🇫🇷": "w", "1x": "v", "a b": "u"})))
		}, func(b *hclwrite.Body) {
			b.SetAttributeRaw("tags", refMapTokens(map[string]string{"größe": "x", "a": "y", "e\u0301": "z", "🇩🇪🇫🇷": "w", "1x": "v", "a b": "u"}))
		}},
		{"labels and the provider requirement", func(b hclBody) {
			b.block("output", []string{"a-b"}, func(o hclBody) { o.attribute("value", tupleTokens(nil)) })
			b.block("terraform", nil, func(tf hclBody) {
				tf.attribute("aws", objectTokens([]string{"source", "version"}, []tokens{stringTokens("hashicorp/aws"), stringTokens(">= 5.0.0")}))
			})
		}, func(b *hclwrite.Body) {
			b.AppendNewBlock("output", []string{"a-b"}).Body().SetAttributeRaw("value", hclwrite.TokensForTuple(nil))
			b.AppendNewBlock("terraform", nil).Body().SetAttributeValue("aws", cty.ObjectVal(map[string]cty.Value{
				"source": cty.StringVal("hashicorp/aws"), "version": cty.StringVal(">= 5.0.0"),
			}))
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ours := &hclFile{}
			tc.ours(ours.body())
			theirs := hclwrite.NewEmptyFile()
			tc.theirs(theirs.Body())
			assert.Equal(t, string(theirs.Bytes()), string(ours.bytes()))
		})
	}
}

// refMapTokens is a map as kops wrote it with hclwrite: keys sorted as given, bare where they are
// ASCII names, quoted (and so normalised) otherwise, as tokens hclwrite lays out. hclwrite writes
// the key "for" bare too, which HCL then cannot parse; kops quotes it, and so does this.
func refMapTokens(m map[string]string) hclwrite.Tokens {
	keys := slices.Sorted(maps.Keys(m))
	toks := hclwrite.Tokens{{Type: hclsyntax.TokenOBrace, Bytes: []byte("{")}}
	if len(keys) > 0 {
		toks = append(toks, &hclwrite.Token{Type: hclsyntax.TokenNewline, Bytes: []byte("\n")})
	}
	for _, k := range keys {
		if validName(k) && k != "for" {
			toks = append(toks, hclwrite.TokensForIdentifier(k)...)
		} else {
			toks = append(toks, hclwrite.TokensForValue(cty.StringVal(k))...)
		}
		toks = append(toks, &hclwrite.Token{Type: hclsyntax.TokenEqual, Bytes: []byte("=")})
		toks = append(toks, hclwrite.TokensForValue(cty.StringVal(m[k]))...)
		toks = append(toks, &hclwrite.Token{Type: hclsyntax.TokenNewline, Bytes: []byte("\n")})
	}
	return append(toks, &hclwrite.Token{Type: hclsyntax.TokenCBrace, Bytes: []byte("}")})
}

func traversal(root string, attrs ...string) hcl.Traversal {
	tr := hcl.Traversal{hcl.TraverseRoot{Name: root}}
	for _, a := range attrs {
		tr = append(tr, hcl.TraverseAttr{Name: a})
	}
	return tr
}

// FuzzStringsMatchHCLWrite: any string value and map key is written as hclwrite writes it (escaped,
// normalised, quoted where it is no name, its "=" aligned by its width in grapheme clusters), and
// reads back as the value (normalised to NFC, as go-cty does; invalid UTF-8 as U+FFFD).
func FuzzStringsMatchHCLWrite(f *testing.F) {
	for _, s := range []string{"", "a", "größe", "${x}", "%{", "$${", "\"\\\n\t", "\x00\x7f\u2028", "e\u0301", "\xff", "🇩🇪x", "1a", "a-b_c", "for", "in", "null"} {
		f.Add(s, "v")
	}
	f.Fuzz(func(t *testing.T, key, value string) {
		ours := &hclFile{}
		ours.body().attribute("tags", mapTokens(reflect.ValueOf(map[string]string{key: value, "zz": "other"})))
		ours.body().attribute("s", stringTokens(value))
		theirs := hclwrite.NewEmptyFile()
		theirs.Body().SetAttributeRaw("tags", refMapTokens(map[string]string{key: value, "zz": "other"}))
		theirs.Body().SetAttributeValue("s", cty.StringVal(value))
		out := ours.bytes()
		require.Equal(t, string(theirs.Bytes()), string(out))

		f, diags := hclsyntax.ParseConfig(out, "x.tf", hcl.InitialPos)
		require.False(t, diags.HasErrors(), "%s\n%s", diags, out)
		attrs, diags := f.Body.JustAttributes()
		require.False(t, diags.HasErrors(), "%s", diags)
		got, diags := attrs["s"].Expr.Value(nil)
		require.False(t, diags.HasErrors(), "%s", diags)
		assert.Equal(t, cty.StringVal(string([]rune(value))), got, "invalid UTF-8 reads back as U+FFFD")
	})
}

// TestMapKeysParse: a map of the users' tags reads back with HCL's parser whatever its keys, in
// particular when its first key is "for", which HCL reads bare as the start of a for-expression.
func TestMapKeysParse(t *testing.T) {
	for _, keys := range [][]string{
		{"for"},
		{"for", "zz"},
		{"a", "for"},
		{"if", "in"},
		{"false", "null", "true"},
	} {
		t.Run(keys[0], func(t *testing.T) {
			m := map[string]string{}
			want := map[string]cty.Value{}
			for _, k := range keys {
				m[k] = "v-" + k
				want[k] = cty.StringVal("v-" + k)
			}
			f := &hclFile{}
			f.body().attribute("tags", mapTokens(reflect.ValueOf(m)))
			out := f.bytes()
			parsed, diags := hclsyntax.ParseConfig(out, "kubernetes.tf", hcl.InitialPos)
			require.False(t, diags.HasErrors(), "%s\n%s", diags, out)
			attrs, diags := parsed.Body.JustAttributes()
			require.False(t, diags.HasErrors(), "%s", diags)
			got, diags := attrs["tags"].Expr.Value(nil)
			require.False(t, diags.HasErrors(), "%s\n%s", diags, out)
			assert.Equal(t, cty.ObjectVal(want), got, "%s", out)
		})
	}
}
