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
	"strings"

	"github.com/hashicorp/hcl/v2/hclwrite"
)

type Renderer interface {
	RenderTerraform(t *Target) error
}

// Literal is an HCL expression written verbatim (a reference or file() call); build it with
// LiteralProperty or AddFile.
type Literal struct {
	// tokens are built with hclwrite's constructors, never parsed, and copied into each file (cloneTokens).
	tokens hclwrite.Tokens
	expr   string
	// refersTo lets references be checked against what was rendered.
	refersTo string
	file     string
}

func (l *Literal) String() string { return l.expr }

func LiteralProperty(resourceType, resourceName, prop string) *Literal {
	t := traversalExpr(resourceType, resourceName, prop)
	return &Literal{tokens: t, expr: string(t.Bytes()), refersTo: resourceType + "." + resourceName}
}

func LiteralString(s string) *Literal {
	t := stringExpr(s)
	return &Literal{tokens: t, expr: string(t.Bytes())}
}

func LiteralDataProperty(dataType, name, prop string) *Literal {
	t := traversalExpr("data", dataType, name, prop)
	return &Literal{tokens: t, expr: string(t.Bytes()), refersTo: "data." + dataType + "." + name}
}

// ResourceName turns nodes.a.example.com into nodes-a-example-com, as kops names resources.
func ResourceName(name string) string {
	return strings.ReplaceAll(name, ".", "-")
}
