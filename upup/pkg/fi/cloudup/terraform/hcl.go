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
	"fmt"
	"maps"
	"math"
	"slices"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/hashicorp/hcl/v2/hclwrite"
	"github.com/zclconf/go-cty/cty"
)

// Every value and name is made by hclwrite's token constructors and File.Bytes lays the file out as
// terraform fmt does; only tag maps and the path.module template list their own punctuation.

// stringExpr is s quoted: go-cty normalises it to NFC, hclwrite escapes it.
func stringExpr(s string) hclwrite.Tokens { return hclwrite.TokensForValue(cty.StringVal(s)) }

func traversalExpr(root string, attrs ...string) hclwrite.Tokens {
	tr := hcl.Traversal{hcl.TraverseRoot{Name: root}}
	for _, a := range attrs {
		tr = append(tr, hcl.TraverseAttr{Name: a})
	}
	return hclwrite.TokensForTraversal(tr)
}

// floatExpr refuses NaN and infinity, which terraform cannot read.
func floatExpr(v float64) (hclwrite.Tokens, error) {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil, fmt.Errorf("%v is not a number terraform reads", v)
	}
	return hclwrite.TokensForValue(cty.NumberFloatVal(v)), nil
}

// mapExpr quotes every key but plain names other than "for": HCL reads an object whose first key is
// a bare "for" as a for-expression, and tag keys come from users.
func mapExpr(m map[string]string) hclwrite.Tokens {
	keys := slices.Sorted(maps.Keys(m))
	attrs := make([]hclwrite.ObjectAttrTokens, len(keys))
	for i, k := range keys {
		name := stringExpr(k)
		if validName(k) && k != "for" {
			name = hclwrite.TokensForIdentifier(k)
		}
		attrs[i] = hclwrite.ObjectAttrTokens{Name: name, Value: stringExpr(m[k])}
	}
	return objectExpr(attrs)
}

// objectExpr is hclwrite.TokensForObject without its layout pass, which File.Bytes repeats anyway.
func objectExpr(attrs []hclwrite.ObjectAttrTokens) hclwrite.Tokens {
	toks := hclwrite.Tokens{punct(hclsyntax.TokenOBrace, "{")}
	if len(attrs) > 0 {
		toks = append(toks, punct(hclsyntax.TokenNewline, "\n"))
	}
	for _, a := range attrs {
		toks = append(toks, a.Name...)
		toks = append(toks, punct(hclsyntax.TokenEqual, "="))
		toks = append(toks, a.Value...)
		toks = append(toks, punct(hclsyntax.TokenNewline, "\n"))
	}
	return append(toks, punct(hclsyntax.TokenCBrace, "}"))
}

// modulePathTemplate lists its tokens since hclwrite has no template constructor; suffix must need
// no escaping (AddFile's names guarantee it).
func modulePathTemplate(suffix string) hclwrite.Tokens {
	toks := hclwrite.Tokens{punct(hclsyntax.TokenOQuote, `"`), punct(hclsyntax.TokenTemplateInterp, `${`)}
	toks = append(toks, traversalExpr("path", "module")...)
	return append(toks,
		punct(hclsyntax.TokenTemplateSeqEnd, `}`),
		punct(hclsyntax.TokenQuotedLit, suffix),
		punct(hclsyntax.TokenCQuote, `"`),
	)
}

func punct(t hclsyntax.TokenType, text string) *hclwrite.Token {
	return &hclwrite.Token{Type: t, Bytes: []byte(text)}
}

// cloneTokens copies tokens before they go into a file, since formatting sets their spaces in place.
func cloneTokens(toks hclwrite.Tokens) hclwrite.Tokens {
	slab := make([]hclwrite.Token, len(toks))
	out := make(hclwrite.Tokens, len(toks))
	for i, t := range toks {
		slab[i] = *t
		out[i] = &slab[i]
	}
	return out
}
