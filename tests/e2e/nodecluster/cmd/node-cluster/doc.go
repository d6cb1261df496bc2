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

// Command node-cluster starts and stops the cluster of tests/e2e/nodecluster: what
// `make cluster` and `make cluster-down` run (through hack/cluster.sh, which builds the binaries
// first), from the repository root:
//
//	go -C tests/e2e run ./nodecluster/cmd/node-cluster up --state-dir DIR [--name NAME] [--nodes N]
//	go -C tests/e2e run ./nodecluster/cmd/node-cluster down --state-dir DIR
//	go -C tests/e2e run ./nodecluster/cmd/node-cluster status --state-dir DIR
//
// up builds the images, starts the cluster (one node, or --nodes of them), waits for its nodes to
// be Ready and prints how to use its kubeconfig; the daemons keep running after it exits, until down.
package main
