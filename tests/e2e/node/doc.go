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

// Package node proves on a real one-node cluster (tests/e2e/nodecluster: kubelet, containerd,
// kube-proxy and a control plane in a network namespace of their own) what the other e2e packages
// can only check on an API server: that what `kops update cluster` renders and `channels apply`
// applies runs, answers and validates. It needs root; it skips, with one line, where the machine
// cannot run containers at all.
package node
