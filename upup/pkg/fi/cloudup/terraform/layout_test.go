package terraform

import (
	"reflect"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/hashicorp/hcl/v2/hclwrite"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/zclconf/go-cty/cty"
)

// TestLayoutMatchesHCLWrite builds files with every kind of item the encoder writes, and some it
// never does (comments, operators, non-ASCII keys), and requires fileBytes to equal hclwrite's own
// formatting of the same file, whichever path it takes.
func TestLayoutMatchesHCLWrite(t *testing.T) {
	hop := int64(1)
	yes := true
	full := testBody{
		Name: "nodes.a.example.com", Count: 2, Enabled: true, HopLimit: &hop,
		Profile:  &testProfile{Name: LiteralProperty("aws_iam_instance_profile", "nodes-a-example-com", "id")},
		Mappings: []testMapping{{DeviceName: "/dev/xvda", EBS: &testEBS{VolumeSize: 64, VolumeType: "gp3", Encrypted: &yes}}, {DeviceName: "/dev/sdb"}},
		Tags:     map[string]string{"kubernetes.io/cluster/a.example.com": "owned", "KubernetesCluster": "a.example.com", "x": "${y} \"q\" \\ \n\t"},
		Zones:    []string{"b", "a"},
		Groups:   []*Literal{LiteralProperty("aws_security_group", "a", "id"), LiteralProperty("aws_security_group", "b", "id")},
		Ref:      LiteralProperty("aws_iam_role", "nodes-a-example-com", "name"),
	}
	tests := []struct {
		name     string
		build    func(*hclwrite.Body)
		fastPath bool
	}{
		{"every kind the encoder writes", func(b *hclwrite.Body) {
			var refs []*Literal
			items, err := encodeBody(reflect.ValueOf(full), "x", &refs)
			require.NoError(t, err)
			writeItems(b.AppendNewBlock("resource", []string{"aws_thing", "a"}).Body(), items)
			b.AppendNewline()
			empty, err := encodeBody(reflect.ValueOf(struct {
				M map[string]string `cty:"m"`
				L []string          `cty:"l"`
				N float64           `cty:"n"`
			}{M: map[string]string{}, L: []string{}, N: 1.5}), "y", &refs)
			require.NoError(t, err)
			writeItems(b.AppendNewBlock("resource", []string{"aws_thing", "b"}).Body(), empty)
		}, true},
		{"the header and provider requirement", func(b *hclwrite.Body) {
			b.AppendNewBlock("locals", nil).Body().SetAttributeValue("region", cty.StringVal("us-east-2"))
			b.AppendNewBlock("terraform", nil).Body().SetAttributeValue("aws", cty.ObjectVal(map[string]cty.Value{
				"source": cty.StringVal("hashicorp/aws"), "version": cty.StringVal(">= 5.0.0"),
			}))
		}, true},
		{"a non-ASCII key falls back", func(b *hclwrite.Body) {
			b.SetAttributeValue("tags", cty.MapVal(map[string]cty.Value{"größe": cty.StringVal("x"), "a": cty.StringVal("y")}))
		}, false},
		{"a comment falls back", func(b *hclwrite.Body) {
			b.AppendUnstructuredTokens(hclwrite.Tokens{{Type: hclsyntax.TokenComment, Bytes: []byte("# note\n")}})
			b.SetAttributeValue("a", cty.NumberIntVal(-1))
		}, false},
		{"a negative number", func(b *hclwrite.Body) {
			b.SetAttributeValue("a", cty.NumberIntVal(-1))
			b.SetAttributeTraversal("bb", hcl.Traversal{hcl.TraverseRoot{Name: "x"}, hcl.TraverseAttr{Name: "y"}})
		}, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := hclwrite.NewEmptyFile()
			tc.build(f.Body())
			assert.Equal(t, string(f.Bytes()), string(fileBytes(f)))
			assert.Equal(t, tc.fastPath, layout(f.BuildTokens(nil)), "which path was taken")
		})
	}
}
