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

// Package crdschema derives a CustomResourceDefinition's structural OpenAPI v3 schema from the Go
// type of the custom resource: the types, properties and required fields come from the struct and
// its json tags, and a table of Fields, keyed by JSON path, adds what a Go type cannot say
// (descriptions, bounds, patterns, enums, CEL rules). The schema therefore accepts exactly the
// fields the Go type has, and nothing the table says can widen it: a Field has no way to preserve
// unknown fields, embed a resource or declare a property the type lacks, except Refused ones.
package crdschema
