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

// Renderer is implemented by tasks the terraform target can write.
type Renderer interface {
	RenderTerraform(t *Target) error
}

// Literal is an HCL expression written verbatim: a reference to another resource's attribute or a
// file() call. Build one with LiteralProperty or from AddFile; its fields are the target's business.
type Literal struct {
	// tokens are the expression as HCL tokens, built with hclwrite's constructors, never parsed
	// from text. They are copied into each file that uses them (cloneTokens).
	tokens hclwrite.Tokens
	// expr is the expression as HCL source, e.g. aws_iam_role.nodes-a-example-com.name.
	expr string
	// refersTo names the resource the expression refers to ("aws_iam_role.nodes-a-example-com"),
	// if any, so that references can be checked against what was rendered.
	refersTo string
	// file is the data file a file() expression reads ("data/..."), if any.
	file string
}

// String returns the expression as written into kubernetes.tf.
func (l *Literal) String() string { return l.expr }

// LiteralProperty refers to an attribute of another rendered resource:
// LiteralProperty("aws_iam_instance_profile", "nodes-a-example-com", "id").
func LiteralProperty(resourceType, resourceName, prop string) *Literal {
	t := traversalExpr(resourceType, resourceName, prop)
	return &Literal{tokens: t, expr: string(t.Bytes()), refersTo: resourceType + "." + resourceName}
}

// LiteralString is a string value where an expression is expected (an ID in a list of references).
func LiteralString(s string) *Literal {
	t := stringExpr(s)
	return &Literal{tokens: t, expr: string(t.Bytes())}
}

// LiteralDataProperty refers to an attribute of a rendered data source:
// LiteralDataProperty("aws_security_group", "nodes-a-example-com", "id").
func LiteralDataProperty(dataType, name, prop string) *Literal {
	t := traversalExpr("data", dataType, name, prop)
	return &Literal{tokens: t, expr: string(t.Bytes()), refersTo: "data." + dataType + "." + name}
}

// ResourceName turns a kops object name (nodes.a.example.com) into a Terraform resource name
// (nodes-a-example-com), as kops names its resources.
func ResourceName(name string) string {
	return strings.ReplaceAll(name, ".", "-")
}
