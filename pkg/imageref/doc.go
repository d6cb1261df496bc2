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

// Package imageref is this project's one parser of container image references and registry
// locations. The grammar is github.com/distribution/reference, the one container runtimes and the
// kubelet parse with: what it refuses, a node would refuse too, so refusing it early turns a pod
// stuck in ErrImagePull into an error at `kops update` time that names the field to fix. This
// package adds only what the library leaves out: an explanation of which part of a refused
// reference is wrong (the library often says only "invalid reference format"), a port range, the
// "pinned" rule of channels and the operators' custom resources, and the rules for spec.assets
// locations.
package imageref
