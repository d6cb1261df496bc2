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

// Command pause is the one-node cluster's sandbox ("pause") image: it holds a pod's namespaces
// and does nothing else until it is told to stop. containerd starts it for every pod, under the
// name the cluster's containerd configuration gives its sandbox image (tests/e2e/nodecluster).
//
// As the first process of a pod that shares its process namespace it also reaps the children
// that are left to it, so that they do not linger as zombies.
package main
