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

// Package coredns is CoreDNS's folder: the CoreDNS object and the operator's runtime descriptor
// (api.go), the Corefile every deployment of a cluster serves (corefile.go), and the one renderer
// of every mode: the built-in addon, client-side mode (kops expands the CoreDNS object itself),
// the operator, and the admission policy that confines the operator (derived from what Render
// returns). Because all of them call Render, they cannot drift.
//
// Only cluster.go knows the cluster spec, mapping a kops cluster to a Spec and Facts; the operator
// fills them from its CoreDNS object. kopsmodel/ is what kops alone links.
package coredns
