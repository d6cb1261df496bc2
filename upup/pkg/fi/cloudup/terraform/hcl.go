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

// kubernetes.tf is written with hclwrite: every value and name is made by hclwrite's token
// constructors (TokensForValue, TokensForIdentifier, TokensForTraversal, TokensForTuple,
// TokensForFunctionCall), the file is an hclwrite.File, and File.Bytes lays it out as terraform
// fmt does. This file holds the few expression shapes the target needs on top of them: tag maps
// and the path.module template list their punctuation tokens themselves (objectExpr,
// modulePathTemplate), and leave every space to File.Bytes.

// stringExpr is s as a quoted string: go-cty normalises it to NFC, hclwrite escapes it.
func stringExpr(s string) hclwrite.Tokens { return hclwrite.TokensForValue(cty.StringVal(s)) }

// traversalExpr is root.attr.attr..., e.g. aws_iam_role.nodes-a-example-com.name.
func traversalExpr(root string, attrs ...string) hclwrite.Tokens {
	tr := hcl.Traversal{hcl.TraverseRoot{Name: root}}
	for _, a := range attrs {
		tr = append(tr, hcl.TraverseAttr{Name: a})
	}
	return hclwrite.TokensForTraversal(tr)
}

// floatExpr is v as a number literal; terraform reads no NaN or infinity (and go-cty makes no
// number of NaN).
func floatExpr(v float64) (hclwrite.Tokens, error) {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil, fmt.Errorf("%v is not a number terraform reads", v)
	}
	return hclwrite.TokensForValue(cty.NumberFloatVal(v)), nil
}

// mapExpr is m as an object with one "key = value" line per entry, keys sorted. A key is written
// bare only when it is a plain ASCII name (validName) other than "for"; any other key is quoted,
// which is always correct. hclwrite's TokensForValue of a map writes "for" bare, and HCL's parser
// reads an object whose first key is a bare "for" as a for-expression and refuses the file; tag
// keys come from users (cloudLabels), so the keys are built here.
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

// objectExpr is an object with one "name = value" line per attribute, in their order: the tokens
// hclwrite.TokensForObject makes, without its layout pass. That pass measures every key line in
// grapheme clusters with a new scanner each time, a large share of the rendering's garbage
// (docs/performance.md), and the file's own layout (File.Bytes) sets the same spaces again anyway.
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

// modulePathTemplate is the template "${path.module}<suffix>". hclwrite has no constructor for a
// template, so its tokens are listed here; suffix must need no escaping (AddFile's names
// guarantee it).
func modulePathTemplate(suffix string) hclwrite.Tokens {
	toks := hclwrite.Tokens{punct(hclsyntax.TokenOQuote, `"`), punct(hclsyntax.TokenTemplateInterp, `${`)}
	toks = append(toks, traversalExpr("path", "module")...)
	return append(toks,
		punct(hclsyntax.TokenTemplateSeqEnd, `}`),
		punct(hclsyntax.TokenQuotedLit, suffix),
		punct(hclsyntax.TokenCQuote, `"`),
	)
}

// punct is one token of the given type and text.
func punct(t hclsyntax.TokenType, text string) *hclwrite.Token {
	return &hclwrite.Token{Type: t, Bytes: []byte(text)}
}

// cloneTokens copies the tokens of an expression before it goes into a file: formatting the file
// sets each token's spaces in place, and the expressions a target keeps (a Literal, a resource's
// items) must stay as they were built, however often and wherever they are written.
func cloneTokens(toks hclwrite.Tokens) hclwrite.Tokens {
	slab := make([]hclwrite.Token, len(toks))
	out := make(hclwrite.Tokens, len(toks))
	for i, t := range toks {
		slab[i] = *t
		out[i] = &slab[i]
	}
	return out
}
