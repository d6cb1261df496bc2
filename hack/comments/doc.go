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

// Command comments checks two rules of the repository's comments:
//
//   - a package's comment, its design, is in its doc.go and in no other file;
//   - comments of non-test code name no test and quote no measured figure. Tests get renamed
//     and figures change with every machine and release, so both go stale where nobody re-reads
//     them; the figures live in docs/performance.md, generated from the benchmarks.
//
// What counts as a test name or a measured figure is decided by the rule documented on Check, not
// by a list of files. Run it to list what it finds (exit 1 if anything):
//
//	go run ./hack/comments          # the whole repository
//	go run ./hack/comments DIR...   # only those folders
//
// Its test runs it in `make test` over the whole repository.
package main
