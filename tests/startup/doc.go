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

// Package startup holds the tests that keep every command's start-up small: nothing heavy is built
// at package initialisation in production code (lazy_test.go), and each binary links only the
// packages listed in testdata (linked_test.go), so a new dependency is a reviewed decision; and no
// package outside channels imports the applier (boundary_test.go).
package startup
