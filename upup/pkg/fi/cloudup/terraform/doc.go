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

// Package terraform is the `--target terraform` of `kops update cluster`: tasks that live in the
// cloud write themselves as Terraform resources (kubernetes.tf) and data files (data/), rendered
// with hclwrite (hcl.go), deterministically.
//
// The contract between tasks and the target is small: a task implements Renderer and calls
// RenderResource with a body struct whose fields carry `cty:"name"` tags, and AddFile for contents
// that belong in data/. References between resources are Literals.
package terraform
