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

// Command boilerplate checks, and with -fix adds, the Apache-2.0 notice at the top of every source
// file of the repository that kops puts one on: Go files, shell scripts and Makefiles, outside
// testdata/ and golden expected/ folders (those hold what programs write, not our sources).
//
//	go run ./hack/boilerplate        # lists the files without the notice; exit 1 if any
//	go run ./hack/boilerplate -fix   # adds it to them
package main
