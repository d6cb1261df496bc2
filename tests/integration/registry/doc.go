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

// Package registry pins what kops writes for an operator that is only data: a throwaway
// DaemonSet operator (addonstest.NodeLocalDNSOperator) put in a registry of its own goes through
// the same builders as every entry of addons.Operators, and every file it gets is a golden file
// (hack/update-expected.sh rewrites them). tests/e2e/operator applies the same files with channels
// and attacks the operator's confinement as its identity.
package registry
