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

// Package updatecluster holds the golden cases of `kops update cluster`: each directory has an
// input cluster (in-v1alpha2.yaml, and optionally the feature flags it runs with) and, under
// expected/, the dry-run report and every file written under the cluster's addons/ and igconfig/;
// a case whose `targets` file names terraform also pins kubernetes.tf and data/ under
// expected/terraform/. Run hack/update-expected.sh to rewrite expected/ after reading why it changed.
//
// An input may name a channel inside its case directory as file://./<path>; the test turns that
// into the absolute file:// URL, since a channel URL must be absolute.
package updatecluster
