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

// Package nodesetup holds the golden cases of the node setup: each directory has an input
// (in-v1alpha2.yaml: a cluster and its instance groups) and, under expected/, the node script, the
// systemd unit, kubelet's drop-in and the launch template user data of its "nodes" group. Run
// hack/update-expected.sh to rewrite expected/ after reading why it changed.
package nodesetup
