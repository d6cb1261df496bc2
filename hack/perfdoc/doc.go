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

// Command perfdoc keeps the figures of docs/performance.md generated from the benchmarks:
//
//	perfdoc list                         the benchmark list, one tab-separated line per entry
//	perfdoc render [machine flags] OUT…  replace the generated block with the figures of the
//	                                     outputs (one `go test -bench` output per entry, in order)
//	perfdoc check                        what keeps the document from matching the list
//
// hack/update-performance.sh runs it; the check runs in `make test` (perfdoc_test.go).
package main
