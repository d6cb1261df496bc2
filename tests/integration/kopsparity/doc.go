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

// Package kopsparity renders clusters of kops's own integration tests and compares what this build
// writes for them with what kops writes, for the kinds of object both write: terraform resource
// addresses and outputs, launch-template metadata options, IAM role policies, trust policies,
// managed-policy attachments and permissions boundaries. Each case holds the cluster
// (in-v1alpha2.yaml) and kops's output for it (kops-expected.yaml), both written here from the
// facts of kubernetes/kops's tests/integration/update_cluster. Every difference must be one of the
// intended differences parity_test.go lists, each with why; docs/terraform-parity.md lists them for users.
package kopsparity
